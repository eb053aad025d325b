import { approveGate, type GoalState } from "@loopx/core";
import type { IssueRef } from "@loopx/github";
import { isBot } from "../authority.ts";
import { type IntakeEffect, type IntakePlan, ignore, reply } from "../intake/intake-plan.ts";

const short = (sha: string) => sha.slice(0, 7);

/** The open gate a review of `pr` decides: the earliest one bound to that PR. */
export function gateFor(state: GoalState, pr: number) {
  return state.gates.find((g) => g.status === "open" && g.pr?.number === pr) ?? null;
}

/** What the handler found out about an approving review before deciding. */
export interface ReviewFacts {
  /** The pull request, as an issue (replies go there). */
  pull: IssueRef;
  repo: { id: number; fullName: string };
  reviewId: number;
  state: string;
  reviewer: { login: string; type: string };
  /** The goals with an open gate bound to this PR. */
  goals: GoalState[];
  trusted: boolean;
  /** The commit reviewed, and the PR's head read fresh from GitHub (null: not read). */
  reviewed: string;
  head: string | null;
  /** The review's link on GitHub, for the receipt. */
  act: string | null;
}

/** One plan per goal whose gate the review decides; `first` carries the delivery's answer. */
export type ReviewPlan =
  | { kind: "ignore"; plan: IntakePlan }
  | { kind: "approve"; plans: { goal: GoalState; plan: IntakePlan }[] };

/**
 * An approving review resolves the PR-bound gate only from a reviewer with write access,
 * and only when it is of the PR's current head: an approval covers what was reviewed,
 * nothing pushed since. Anything else gets one reply on the PR saying what would count
 * (an outsider's from the outsiders' allowance); a bot's, none.
 */
export function planReview(f: ReviewFacts): ReviewPlan {
  const nothing = (why: string, effects: IntakeEffect[] = []): ReviewPlan => ({
    kind: "ignore",
    plan: ignore(why, effects),
  });
  if (f.state.toLowerCase() !== "approved") return nothing("not an approving review");
  if (isBot(f.reviewer)) return nothing(`review by ${f.reviewer.login}: bots carry no authority`);
  if (f.goals.length === 0) return nothing(`no open gate is bound to #${f.pull.number}`);
  const key = `reply:review:${f.reviewId}`;
  const to = {
    repoId: f.repo.id,
    login: f.reviewer.login,
    lane: f.trusted ? ("loopx" as const) : ("outsider" as const),
  };
  const answer = (text: string) => reply(f.pull, key, text, to);
  const gates = f.goals.map(
    (g) => `${gateFor(g, f.pull.number)?.key} (goal #${g.goal.issue.number})`,
  );
  if (!f.trusted) {
    return nothing(`review by ${f.reviewer.login}, who has no write access`, [
      answer(
        `This approval does not resolve ${gates.join(", ")}: approving a LoopX gate takes write access to ${f.repo.fullName}. A maintainer's approving review of the current head, or \`/loopx approve G#\` on the goal issue, would.`,
      ),
    ]);
  }
  const head = f.head ?? "";
  if (f.reviewed !== head) {
    return nothing(`stale review of ${short(f.reviewed)} (head ${short(head)})`, [
      answer(
        `This approval was for \`${short(f.reviewed || "unknown")}\`, but #${f.pull.number} is now at \`${short(head)}\`, so ${gates.join(", ")} stays open. Approve the current head to resolve it.`,
      ),
    ]);
  }
  const plans = f.goals.flatMap((goal) => {
    const gate = gateFor(goal, f.pull.number);
    if (!gate) return [];
    const plan: IntakePlan = {
      kind: "apply",
      actor: { kind: "human", login: f.reviewer.login, trusted: true },
      transition: (s, ctx) =>
        approveGate(
          s,
          {
            gate: gate.key,
            headSha: f.reviewed,
            note: `approving review of ${short(f.reviewed)}`,
            act: f.act,
          },
          ctx,
        ),
      effects: [],
      // An approved gate refuses a second approval: a retry of this delivery, said nothing.
      refused: (refusal) =>
        refusal.code === "duplicate"
          ? []
          : [answer(`${gate.key} was not approved: ${refusal.message}`)],
    };
    return [{ goal, plan }];
  });
  return { kind: "approve", plans };
}
