// Sandbox stand-in for actions/download-artifact@v4: finds the run's artifact by name through
// the Actions artifact service with the job's runtime token (ListArtifacts,
// GetSignedArtifactURL) and unpacks it into `path`; a missing artifact fails the step, as the
// real action does.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";

const env = process.env;
const name = env.INPUT_NAME ?? "";
const service = `${env.ACTIONS_RESULTS_URL}twirp/github.actions.results.api.v1.ArtifactService/`;
const call = async (method, body) => {
  const res = await fetch(service + method, {
    method: "POST",
    headers: {
      authorization: `Bearer ${env.ACTIONS_RUNTIME_TOKEN}`,
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
};
const ids = { workflow_run_backend_id: env.GITHUB_RUN_ID, workflow_job_run_backend_id: "" };
const url = await call("GetSignedArtifactURL", { ...ids, name });
if (!name || url.status !== 200) {
  console.log(`::error::Artifact not found for name: ${name}`);
  process.exit(1);
}
const archive = Buffer.from(await (await fetch(url.body.signed_url)).arrayBuffer());
const to = env.INPUT_PATH || env.GITHUB_WORKSPACE || ".";
mkdirSync(to, { recursive: true });
execFileSync("tar", ["-xf", "-", "-C", to], { input: archive });
console.log(`Artifact ${name} was downloaded to ${to}`);
