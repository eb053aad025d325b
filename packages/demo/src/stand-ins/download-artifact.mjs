// Sandbox stand-in for actions/download-artifact@v7: finds the run's artifact by name through
// the Actions artifact service with the job's runtime token (ListArtifacts,
// GetSignedArtifactURL) and unpacks it into `path`; a missing artifact fails the step, as the
// real action does.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { call } from "./artifact-service.mjs";

const env = process.env;
const name = env.INPUT_NAME ?? "";
const url = await call("GetSignedArtifactURL", { name });
if (!name || url.status !== 200) {
  console.log(`::error::Artifact not found for name: ${name}`);
  process.exit(1);
}
const archive = Buffer.from(await (await fetch(url.body.signed_url)).arrayBuffer());
const to = env.INPUT_PATH || env.GITHUB_WORKSPACE || ".";
mkdirSync(to, { recursive: true });
execFileSync("tar", ["-xf", "-", "-C", to], { input: archive });
console.log(`Artifact ${name} was downloaded to ${to}`);
