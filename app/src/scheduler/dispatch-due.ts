import {
  type DueGoal,
  installationStanding,
  recordDispatchRun,
  releaseDispatch,
  takeDueDispatches,
} from "@loopx/store";
import type { AppDeps } from "../deps.ts";
import type { RepoFactsCache } from "../repo-facts.ts";
import { dispatchTick } from "./dispatch-tick.ts";

export interface DispatchDueOptions {
  repoId?: number | undefined;
  limit?: number | undefined;
  redispatchMs?: number | undefined;
  graceMs?: number | undefined;
}

/**
 * Dispatches the tick workflow of every due goal this replica wins (SKIP LOCKED, see
 * takeDueDispatches). A goal whose dispatch GitHub refused is released for the next pass;
 * one in a killed or suspended installation, or with an invalid config, keeps its marker
 * and is looked at again only after the quiet interval. Returns the goals dispatched.
 */
export async function dispatchDue(
  deps: AppDeps,
  facts: RepoFactsCache,
  opts: DispatchDueOptions = {},
): Promise<DueGoal[]> {
  const due = await takeDueDispatches(deps.store.db, opts);
  const dispatched: DueGoal[] = [];
  for (const goal of due) {
    try {
      const standing = await installationStanding(deps.store.db, goal.installationId);
      if (standing.killed || standing.suspended) continue;
      const repo = { owner: goal.owner, repo: goal.name };
      const known = await facts.get({ ...goal, repoId: goal.repoId });
      // An invalid config pauses the goal when it is read; dispatching would only waste a run.
      if (!known.config) continue;
      const port = await deps.portFor(goal.installationId);
      const runId = await dispatchTick(
        deps,
        port,
        { ...repo, issueNumber: goal.issueNumber },
        known.config.tickWorkflow,
        known.defaultBranch,
      );
      if (runId !== null) await recordDispatchRun(deps.store.db, goal.goalId, runId);
      dispatched.push(goal);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      deps.log.warn(
        `dispatching the tick of ${goal.owner}/${goal.name}#${goal.issueNumber}: ${message}`,
      );
      await releaseDispatch(deps.store.db, goal.goalId);
    }
  }
  return dispatched;
}
