import { GitHubError, type GitHubPort } from "@loopx/github";
import type { ProbotOctokit } from "probot";
import { z } from "zod";

type Octokit = InstanceType<typeof ProbotOctokit>;
type Call = <T>(what: string, fn: () => Promise<T>) => Promise<T>;

/** `return_run_details: true` answers 200 with this (changelog 2026-02-19). */
const RunDetails = z.object({ workflow_run_id: z.number().int().positive() });
const Runs = z.object({
  workflow_runs: z.array(z.object({ id: z.number(), display_title: z.string().optional() })),
});

/** A run GitHub started for a 204 dispatch may take a moment to be listed. */
const LOOKUPS_MS = [0, 1_000, 2_000];

const Refusal = z.object({ status: z.literal(422), message: z.string() });

/** GitHub's 422 for inputs the file does not declare: the caller predates what LoopX sends. */
function outdatedCaller(workflowFile: string, error: unknown): GitHubError | null {
  const refusal = Refusal.safeParse(error);
  const said = refusal.success
    ? /Unexpected inputs provided: \[[^\]]*\]/.exec(refusal.data.message)
    : null;
  if (!said) return null;
  return new GitHubError(
    `dispatching ${workflowFile}: GitHub answered 422 (${said[0]}): the repository's ${workflowFile} does not declare the documented caller's inputs (goal, slot, nonce); replace it with the caller in docs/workflows.md`,
    422,
    null,
    { cause: error },
  );
}

/**
 * workflow_dispatch that tells which run it started: GitHub answers the run's id when asked
 * (`return_run_details`); where it answers 204 (GitHub Enterprise Server), the run is found by
 * the dispatch's `nonce` input, which the caller's `run-name` shows (docs/workflows.md).
 */
export function createDispatchVerb(
  octokit: Octokit,
  call: Call,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Pick<GitHubPort, "dispatchWorkflow"> {
  const findByNonce = async (
    repo: { owner: string; repo: string },
    workflowFile: string,
    ref: string,
    nonce: string,
  ): Promise<number | null> => {
    for (const wait of LOOKUPS_MS) {
      if (wait > 0) await sleep(wait);
      const { data } = await octokit.rest.actions.listWorkflowRuns({
        ...repo,
        workflow_id: workflowFile,
        event: "workflow_dispatch",
        branch: ref,
        per_page: 20,
      });
      const match = Runs.parse(data).workflow_runs.find((r) =>
        (r.display_title ?? "").split(/\s+/).includes(nonce),
      );
      if (match) return match.id;
    }
    return null;
  };

  return {
    dispatchWorkflow: (repo, workflowFile, ref, inputs) =>
      call(`dispatching ${workflowFile} in ${repo.owner}/${repo.repo}`, async () => {
        const res = await octokit
          .request("POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", {
            ...repo,
            workflow_id: workflowFile,
            ref,
            inputs,
            return_run_details: true,
          })
          .catch((error: unknown) => {
            throw outdatedCaller(workflowFile, error) ?? error;
          });
        const details = RunDetails.safeParse(res.status === 200 ? res.data : null);
        if (details.success) return { runId: details.data.workflow_run_id };
        const nonce = inputs.nonce;
        return { runId: nonce ? await findByNonce(repo, workflowFile, ref, nonce) : null };
      }),
  };
}
