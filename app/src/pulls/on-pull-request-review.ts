import { actLinkOf, type GoalState } from "@loopx/core";
import type { Delivery } from "@loopx/store";
import { actorFor, isBot } from "../authority.ts";
import type { AppDeps } from "../deps.ts";
import { commitPlan } from "../intake/commit-plan.ts";
import { issueRef, repoName } from "../intake/goal-context.ts";
import { ignored, type Outcome } from "../webhooks/outcome.ts";
import { gateFor, planReview } from "./plan-review.ts";
import type { PullRequestReviewEvent } from "./review-payloads.ts";

/**
 * `pull_request_review.submitted`: gathers what planReview decides on (the goals whose open
 * gate is bound to this PR, the reviewer's write access, the PR's head read fresh from
 * GitHub, not from the payload) and hands each goal's plan to the store.
 */
export async function onPullRequestReview(
  deps: AppDeps,
  delivery: Delivery,
  e: PullRequestReviewEvent,
): Promise<Outcome> {
  const reviewer = e.review.user ?? e.sender;
  const pr = e.pull_request.number;
  const relevant = e.review.state.toLowerCase() === "approved" && !isBot(reviewer);
  const goals: GoalState[] = [];
  if (relevant) {
    for (const id of await deps.store.goalIdsForPull(e.repository.id, pr)) {
      const state = await deps.store.loadGoal(id);
      if (state && gateFor(state, pr)) goals.push(state);
    }
  }
  const repo = repoName(e.repository);
  const port = goals.length > 0 ? await deps.readsFor(e.installation.id) : null;
  const trusted = port !== null && (await actorFor(port, repo, reviewer)).trusted;
  const reviewed = e.review.commit_id ?? "";
  const head = port !== null && trusted ? (await port.getPull(repo, pr)).headSha : null;
  const decided = planReview({
    pull: issueRef(e.repository, pr),
    repo: { id: e.repository.id, fullName: e.repository.full_name },
    reviewId: e.review.id,
    state: e.review.state,
    reviewer,
    goals,
    trusted,
    reviewed,
    head,
    act: actLinkOf(e.review.html_url),
  });
  const about = { installationId: e.installation.id };
  if (decided.kind === "ignore") {
    return commitPlan(deps, delivery, { ...about, goal: goals[0] ?? null }, decided.plan);
  }
  let outcome: Outcome = ignored("nothing approved");
  for (const [i, { goal, plan }] of decided.plans.entries()) {
    // The delivery is marked with the last goal's transition; earlier ones are idempotent
    // on a retry (an approved gate refuses a second approval).
    const last = i === decided.plans.length - 1;
    const result = await commitPlan(deps, last ? delivery : null, { ...about, goal }, plan);
    if (result.kind === "applied" || outcome.kind !== "applied") outcome = result;
  }
  return outcome;
}
