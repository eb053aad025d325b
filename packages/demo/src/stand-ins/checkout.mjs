// Sandbox stand-in for actions/checkout: the sandbox runner already cloned the run's commit
// into the workspace with full history and no stored credential (persist-credentials: false).
if (process.env["INPUT_PERSIST-CREDENTIALS"] !== "false") {
  console.log("::error::the LoopX agent job must check out with persist-credentials: false");
  process.exit(1);
}
