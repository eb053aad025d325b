import type { Effect, GoalState } from "@loopx/core";
import type { GitHubPort } from "@loopx/github";

type CancelRun = Extract<Effect, { kind: "cancel_run" }>;

/** How long a cancelled run may take to finish its `always()` steps before it is force-cancelled. */
export const FORCE_CANCEL_AFTER_MS = 5 * 60_000;

/** Not a failure: the write is done for now and comes due again at `retryAt`. */
export class EffectDeferred extends Error {
  override name = "EffectDeferred";
  constructor(
    readonly retryAt: Date,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Stops the workflow run of a tick a person stopped or paused. First a cancel, as GitHub's
 * "Cancel a workflow run" does: running steps get SIGINT, and the report job (`always()`)
 * still runs, so the slice's measured usage reaches the App. Five minutes after the stop, a
 * run still going is force-cancelled ("Force cancel a workflow run" skips `always()`); a run
 * GitHub says is completed (409) needs nothing more.
 */
export async function cancelRun(
  port: Pick<GitHubPort, "cancelRun">,
  state: GoalState,
  effect: CancelRun,
  /** The row's last note: says whether GitHub already took the cancel. */
  lastError: string | null,
  now: Date,
): Promise<void> {
  const repo = { owner: state.goal.repo.owner, repo: state.goal.repo.name };
  const forceAt = new Date(effect.at.getTime() + FORCE_CANCEL_AFTER_MS);
  if (now.getTime() >= forceAt.getTime()) {
    await port.cancelRun(repo, effect.runId, true);
    return;
  }
  const waiting = cancellingNote(effect.runId);
  const wait = new EffectDeferred(
    forceAt,
    `${waiting}; LoopX force-cancels it at ${forceAt.toISOString()} if it has not completed by then`,
  );
  // Due early (a worker restart, a retry): the cancel was taken, the wait goes on.
  if (lastError?.startsWith(waiting)) throw wait;
  const answer = await port.cancelRun(repo, effect.runId, false);
  if (answer === "completed") return;
  throw wait;
}

const cancellingNote = (runId: number) => `workflow run ${runId} is cancelling`;
