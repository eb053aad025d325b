// Sandbox stand-in for actions/download-artifact: copies $LOOPX_SANDBOX_ARTIFACTS/<name>/* to
// `path`; a missing artifact fails the step, as the real action does.
import { cpSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const name = process.env.INPUT_NAME ?? "";
const from = join(process.env.LOOPX_SANDBOX_ARTIFACTS ?? "", name);
if (!name || !existsSync(from)) {
  console.log(`::error::Artifact not found for name: ${name}`);
  process.exit(1);
}
const to = process.env.INPUT_PATH || process.env.GITHUB_WORKSPACE || ".";
mkdirSync(to, { recursive: true });
cpSync(from, to, { recursive: true });
