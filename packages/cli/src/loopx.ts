/** The `loopx` command's entry: wiring only (see runner.ts). */
import { runCli } from "./runner.ts";

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
