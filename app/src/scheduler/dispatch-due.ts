import { decide } from "@loopx/core";
import type { DueGoal } from "@loopx/store";
import type { AppDeps } from "../deps.ts";
import type { RepoFactsCache } from "../repo-facts.ts";

export interface DispatchDueOptions {
  repoId?: number | undefined;
  limit?: number | undefined;
  redispatchMs?: number | undefined;
  graceMs?: number | undefined;
}

/**
 * Queues the tick workflow's dispatch of every due goal this replica wins (SKIP LOCKED, see
 * takeDueDispatches) as an outbox row: the outbox writes it, retries what GitHub refuses for
 * now and records the run. A goal whose facts could not be read is released for the next
 * pass; one in a killed or suspended installation, with an invalid config, or whose
 * decision is not a run, keeps its marker and is looked at again only after the quiet
 * interval. Returns the goals queued.
 */
export async function dispatchDue(
  deps: AppDeps,
  facts: RepoFactsCache,
  opts: DispatchDueOptions = {},
): Promise<DueGoal[]> {
  const due = await deps.store.takeDueDispatches(opts);
  const dispatched: DueGoal[] = [];
  for (const goal of due) {
    try {
      const standing = await deps.store.installationStanding(goal.installationId);
      if (standing.killed || standing.suspended) continue;
      // A tick whose ask would answer "wait" (a gate open, CI or a merge awaited, backoff)
      // costs a run for nothing: it keeps its marker until the goal changes or the quiet
      // interval passes.
      const state = await deps.store.loadGoal(goal.goalId);
      const route = state ? decide(state, await deps.store.databaseNow(), "app").route : null;
      if (route !== "run" && route !== "replan") continue;
      const known = await facts.get({ ...goal, repoId: goal.repoId });
      // An invalid config pauses the goal when it is read; dispatching would only waste a run.
      if (!known.config) continue;
      // Written by the outbox, like every GitHub write: it records the run GitHub started.
      const queued = await deps.store.queueEffects(goal.goalId, [
        {
          kind: "dispatch",
          key: `dispatch:due:${deps.newId()}`,
          reason: "due",
          at: await deps.store.databaseNow(),
          target: { workflow: known.config.tickWorkflow, ref: known.defaultBranch },
        },
      ]);
      if (queued) dispatched.push(goal);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      deps.log.warn(
        `dispatching the tick of ${goal.owner}/${goal.name}#${goal.issueNumber}: ${message}`,
      );
      await deps.store.releaseDispatch(goal.goalId);
    }
  }
  return dispatched;
}
