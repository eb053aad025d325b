import { reopenGatesForPush } from "@loopx/core";
import type { Delivery } from "@loopx/store";
import type { AppDeps } from "../deps.ts";
import { transitionContext } from "../intake/goal-context.ts";
import { applied, ignored, type Outcome } from "../webhooks/outcome.ts";
import type { PullRequestEvent } from "./review-payloads.ts";

/**
 * `pull_request.synchronize`: the PR's head moved, so an approval of the old head no longer
 * covers it. Every goal with a gate on (or a link to) this PR follows the new head; an
 * approved gate opens again. Whoever pushed, this only ever takes authority away.
 */
export async function onPullRequestPush(
  deps: AppDeps,
  delivery: Delivery,
  e: PullRequestEvent,
): Promise<Outcome> {
  const pr = e.pull_request.number;
  const headSha = e.pull_request.head.sha;
  // GitHub's own time for the new head — never a commit date, which whoever pushed chose.
  const reportedAt = e.pull_request.updated_at ?? null;
  const ids = await deps.store.goalIdsForPull(e.repository.id, pr);
  if (ids.length === 0) return ignored(`no goal follows #${pr}`);
  const actor = { kind: "system", reason: `push to #${pr}` } as const;
  let outcome: Outcome = ignored(`no gate on #${pr} changed`);
  for (const [i, id] of ids.entries()) {
    const last = i === ids.length - 1;
    const result = await deps.store.apply(
      id,
      (s, now) =>
        reopenGatesForPush(s, { pr, headSha, reportedAt }, transitionContext(deps, actor, now)),
      last ? { deliveryId: delivery.deliveryId } : {},
    );
    if (result.ok) outcome = applied;
  }
  return outcome;
}
