import type { AppDeps } from "../deps.ts";
import { ignored, type Outcome } from "../webhooks/outcome.ts";
import { monitorOptions, observeForGoals, type PullTarget } from "./monitor-pull.ts";
import { glancePull } from "./read-pull.ts";

/**
 * The monitor's step for a push to a watched PR (`synchronize`): one glance at the PR, which
 * follows its new head (however late the delivery) and starts GitHub's mergeability job. The
 * new head's checks, statuses and reviews are read when its CI answers, not now.
 */
export async function monitorPush(
  deps: AppDeps,
  target: PullTarget,
  deliveryId: string | null,
): Promise<Outcome> {
  const ids = await deps.store.goalIdsWatchingPull(target.repoId, target.number);
  if (ids.length === 0) return ignored(`no goal watches #${target.number}`);
  const { port, read } = await monitorOptions(deps, target);
  const observation = await glancePull(port, target.repo, target.number, read);
  return observeForGoals(deps, ids, observation, deliveryId);
}
