import { reopenGatesForPush } from "@loopx/core";
import type { Delivery } from "@loopx/store";
import type { AppDeps } from "../deps.ts";
import { transitionContext } from "../intake/goal-context.ts";
import { applied, ignored, type Outcome } from "../webhooks/outcome.ts";
import type { PullRequestEvent } from "./review-payloads.ts";

/**
 * `pull_request.synchronize`: the PR's head moved, so an approval of the old head no longer
 * covers it. Every goal with a gate on (or a link to) this PR follows the new head; an
 * approved gate opens again. Whoever pushed, this only ever takes authority away. A goal that
 * already knows a later head (deliveries arrive out of order) refuses the payload's head: the
 * PR's head is then read from GitHub, so a stale delivery never moves a gate back.
 */
export async function onPullRequestPush(
  deps: AppDeps,
  delivery: Delivery,
  e: PullRequestEvent,
): Promise<Outcome> {
  const pr = e.pull_request.number;
  const ids = await deps.store.goalIdsForPull(e.repository.id, pr);
  if (ids.length === 0) return ignored(`no goal follows #${pr}`);
  const actor = { kind: "system", reason: `push to #${pr}` } as const;
  const push = {
    pr,
    headSha: e.pull_request.head.sha,
    // GitHub's own time for the new head — never a commit date, which whoever pushed chose.
    reportedAt: e.pull_request.updated_at ?? null,
    ...(e.before !== undefined ? { before: e.before } : {}),
  };
  let outcome: Outcome = ignored(`no gate on #${pr} changed`);
  let current: { pr: number; headSha: string } | null = null;
  for (const [i, id] of ids.entries()) {
    const last = i === ids.length - 1;
    const marks = last ? { deliveryId: delivery.deliveryId } : {};
    let result = await deps.store.apply(
      id,
      (s, now) => reopenGatesForPush(s, push, transitionContext(deps, actor, now)),
      { ...marks, onRefusal: "leave_pending" },
    );
    if (!result.ok && result.refusal.code === "out_of_order") {
      if (current === null) {
        const port = await deps.readsFor(e.installation.id);
        const repo = { owner: e.repository.owner.login, repo: e.repository.name };
        current = { pr, headSha: (await port.getPull(repo, pr)).headSha };
      }
      const read = current;
      result = await deps.store.apply(
        id,
        (s, now) => reopenGatesForPush(s, read, transitionContext(deps, actor, now)),
        marks,
      );
    }
    if (result.ok) outcome = applied;
  }
  return outcome;
}
