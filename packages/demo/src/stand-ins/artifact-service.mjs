// The Actions artifact service as the stand-ins call it: Twirp JSON at ACTIONS_RESULTS_URL with
// the job's ACTIONS_RUNTIME_TOKEN, as @actions/artifact does.
const env = process.env;
const service = `${env.ACTIONS_RESULTS_URL}twirp/github.actions.results.api.v1.ArtifactService/`;
const ids = { workflow_run_backend_id: env.GITHUB_RUN_ID, workflow_job_run_backend_id: "" };

export async function call(method, body) {
  const res = await fetch(service + method, {
    method: "POST",
    headers: {
      authorization: `Bearer ${env.ACTIONS_RUNTIME_TOKEN}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ ...ids, ...body }),
  });
  return { status: res.status, body: await res.json() };
}
