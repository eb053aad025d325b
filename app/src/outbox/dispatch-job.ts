import { type Effect, type GoalState, jobNotDispatched, jobStarted } from "@loopx/core";
import { GitHubError, type GitHubPort } from "@loopx/github";
import type { AppDeps } from "../deps.ts";
import { transitionContext } from "../intake/goal-context.ts";
import { EffectDeferred } from "./cancel-run.ts";

type DispatchJob = Extract<Effect, { kind: "dispatch_job" }>;

/**
 * The report job pushes the slice's commits after the result is accepted, so the todo's
 * branch may not exist yet when the job is first dispatched: GitHub's 422 for a missing ref
 * is waited out this long after the wait began before it counts as a refusal.
 */
export const BRANCH_GRACE_MS = 15 * 60_000;
const RECHECK_MS = 10_000;

/** GitHub's own words: the port's wording is about LoopX's tick caller, not this job. */
function githubSaid(error: GitHubError): string {
  let said: Error = error;
  while (said.cause instanceof Error) said = said.cause;
  // Octokit appends the documentation link to GitHub's message.
  return said.message.replace(/ - https:\/\/\S+$/, "").slice(0, 300);
}

/**
 * Dispatches the job a todo waits on, on the todo's branch with the inputs the config
 * allowed. Idempotent across retries: a todo that no longer waits on this job, or already
 * knows its run, needs no dispatch. When GitHub names the run it started, that run alone
 * wakes the todo; where it does not, the completion is matched by workflow, branch and time.
 * A dispatch GitHub refuses ends the wait with its answer as evidence.
 */
export async function dispatchJob(
  deps: AppDeps,
  port: Pick<GitHubPort, "dispatchWorkflow">,
  state: GoalState,
  effect: DispatchJob,
  now: Date,
): Promise<void> {
  // A paused goal still gets its run (nothing would dispatch it on resume); an ended one not.
  if (state.goal.status === "stopped" || state.goal.status === "done") return;
  const waiting = state.todos.find((t) => t.key === effect.todo)?.resumeWhen;
  if (waiting?.kind !== "job" || waiting.job !== effect.job || waiting.runId !== null) return;
  const repo = { owner: state.goal.repo.owner, repo: state.goal.repo.name };
  const system = (reason: string, at: Date) =>
    transitionContext(deps, { kind: "system", reason }, at);
  let runId: number | null;
  try {
    ({ runId } = await port.dispatchWorkflow(repo, effect.workflow, effect.ref, effect.inputs));
  } catch (error) {
    if (!(error instanceof GitHubError) || error.status !== 422) throw error;
    const message = githubSaid(error);
    if (
      /No ref found/i.test(message) &&
      now.getTime() < waiting.since.getTime() + BRANCH_GRACE_MS
    ) {
      throw new EffectDeferred(
        new Date(now.getTime() + RECHECK_MS),
        `${effect.ref} is not pushed yet`,
      );
    }
    await deps.store.apply(state.goal.id, (s, at) =>
      jobNotDispatched(
        s,
        { todo: effect.todo, job: effect.job, message },
        system("job dispatch refused", at),
      ),
    );
    return;
  }
  if (runId === null) return;
  await deps.store.apply(state.goal.id, (s, at) =>
    jobStarted(s, { todo: effect.todo, job: effect.job, runId }, system("job dispatched", at)),
  );
}
