import { approveGate, type GoalState } from "@loopx/core";
import type { GitHubPort } from "@loopx/github";
import type { Delivery } from "@loopx/store";
import { actorFor } from "../authority.ts";
import type { AppDeps } from "../deps.ts";
import type { PullRequestReviewEvent } from "../webhooks/review-payloads.ts";
import { replyToOutsider } from "./comment-replies.ts";
import { issueRef, repoName, transitionContext } from "./goal-context.ts";
import { goalIdsForPull } from "./goal-lookups.ts";
import { applied, ignored, type Outcome } from "./outcome.ts";

const short = (sha: string) => sha.slice(0, 7);

/** The open gate a review of `pr` decides: the earliest one bound to that PR. */
function gateFor(state: GoalState, pr: number) {
  return state.gates.find((g) => g.status === "open" && g.pr?.number === pr) ?? null;
}

/**
 * `pull_request_review.submitted` with `approved` resolves the PR-bound gate — only from a
 * reviewer with write access, and only when the review is of the PR's current head (read
 * fresh from GitHub, not from the payload): an approval covers what was reviewed, nothing
 * pushed since. Anything else gets one reply on the PR saying what would count.
 */
export async function onPullRequestReview(
  deps: AppDeps,
  delivery: Delivery,
  e: PullRequestReviewEvent,
): Promise<Outcome> {
  if (e.review.state.toLowerCase() !== "approved") return ignored("not an approving review");
  const reviewer = e.review.user ?? e.sender;
  if (reviewer.type === "Bot" || reviewer.login.endsWith("[bot]")) {
    return ignored(`review by ${reviewer.login}: bots carry no authority`);
  }
  const pr = e.pull_request.number;
  const goals: GoalState[] = [];
  for (const id of await goalIdsForPull(deps.store, e.repository.id, pr)) {
    const state = await deps.store.loadGoal(id);
    if (state && gateFor(state, pr)) goals.push(state);
  }
  if (goals.length === 0) return ignored(`no open gate is bound to #${pr}`);

  const port = await deps.portFor(e.installation.id);
  const repo = repoName(e.repository);
  const actor = await actorFor(port, repo, reviewer);
  const replyWith = (p: GitHubPort, text: string) =>
    p.ensureComment(issueRef(e.repository, pr), `reply:review:${e.review.id}`, text);
  const reply = (text: string) => replyWith(port, text);
  const gates = goals.map((g) => `${gateFor(g, pr)?.key} (goal #${g.goal.issue.number})`);

  if (!actor.trusted) {
    // Anyone can review a public repository: the answer comes from the outsiders' allowance.
    const to = { repoId: e.repository.id, login: reviewer.login };
    await replyToOutsider(deps, e.installation.id, to, (p) =>
      replyWith(
        p,
        `This approval does not resolve ${gates.join(", ")}: approving a LoopX gate takes write access to ${e.repository.full_name}. A maintainer's approving review of the current head, or \`/loopx approve G#\` on the goal issue, would.`,
      ),
    );
    return ignored(`review by ${reviewer.login}, who has no write access`);
  }
  const reviewed = e.review.commit_id ?? "";
  const head = (await port.getPull(repo, pr)).headSha;
  if (reviewed !== head) {
    await reply(
      `This approval was for \`${short(reviewed || "unknown")}\`, but #${pr} is now at \`${short(head)}\`, so ${gates.join(", ")} stays open. Approve the current head to resolve it.`,
    );
    return ignored(`stale review of ${short(reviewed)} (head ${short(head)})`);
  }

  let outcome: Outcome = ignored("nothing approved");
  for (const [i, goal] of goals.entries()) {
    const gate = gateFor(goal, pr);
    if (!gate) continue;
    // The delivery is marked with the last goal's transition; earlier ones are idempotent
    // on a retry (an approved gate refuses a second approval).
    const last = i === goals.length - 1;
    const result = await deps.store.apply(
      goal.goal.id,
      (s, now) =>
        approveGate(
          s,
          { gate: gate.key, headSha: reviewed, note: `approving review of ${short(reviewed)}` },
          transitionContext(deps, actor, now),
        ),
      last ? { deliveryId: delivery.deliveryId } : {},
    );
    if (result.ok) outcome = applied;
    else if (result.refusal.code !== "duplicate") {
      await reply(`${gate.key} was not approved: ${result.refusal.message}`);
      outcome = ignored(`refused: ${result.refusal.code}`);
    }
  }
  return outcome;
}
