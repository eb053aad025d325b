import type { GitHubPort } from "@loopx/github";
import type { AppDeps } from "../deps.ts";

/**
 * Dispatches a goal's tick workflow with the inputs the documented caller declares: `goal`,
 * a fresh `nonce` (its `run-name` shows it) and, for a goal running ticks in parallel, the
 * `slot` whose concurrency group the run takes (a goal's one slot sends none, so callers
 * from before slots keep working). Returns the run GitHub started, or null when
 * it could not be told; the caller records it for `workflow_run` to trace a failed run.
 */
export async function dispatchTick(
  deps: Pick<AppDeps, "newId">,
  port: Pick<GitHubPort, "dispatchWorkflow">,
  target: { owner: string; repo: string; issueNumber: number },
  workflowFile: string,
  ref: string,
  slot = "",
): Promise<number | null> {
  const { runId } = await port.dispatchWorkflow(
    { owner: target.owner, repo: target.repo },
    workflowFile,
    ref,
    {
      goal: String(target.issueNumber),
      ...(slot === "" ? {} : { slot }),
      nonce: deps.newId(),
    },
  );
  return runId;
}
