import { z } from "zod";
import { sameSha } from "../pr-outcome.ts";
import { Sha } from "../schemas/primitives.ts";
import type { GoalState } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import { addEffect, begin, emit, isRefused, parseInput, refuse } from "./kit.ts";

export const PullRequestPushedInput = z.object({
  pr: z.number().int().positive(),
  headSha: Sha,
  /** When GitHub reported the new head (the `synchronize` payload's updated_at). */
  reportedAt: z.coerce.date().nullable().default(null),
  /**
   * The head the push replaced (the payload's `before`). A goal that knows the PR at any other
   * head heard of a later push first: this delivery is out of order and refused.
   */
  before: Sha.optional(),
});
export type PullRequestPushedInput = z.input<typeof PullRequestPushedInput>;

/**
 * A push to a pull request moves its head: an approval covered the old head only, so an
 * approved gate bound to that PR opens again (with a fresh review request), and an open one
 * now asks about the new head — each with a new gate comment naming it, never silently.
 * The gate keeps when GitHub reported the head, so an approving comment written before then
 * (about the old head) counts for nothing. Anyone's push does this — it only ever takes
 * authority away, so it needs none.
 */
export function reopenGatesForPush(
  state: GoalState,
  input: PullRequestPushedInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(PullRequestPushedInput, input);
  if (isRefused(parsed)) return parsed;
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const head = parsed.headSha;
  if (parsed.before !== undefined) {
    const follows = [parsed.before, head];
    const known = [
      ...d.state.gates
        .filter(
          (g) => g.pr?.number === parsed.pr && (g.status === "open" || g.status === "approved"),
        )
        .map((g) => g.pr?.headSha ?? head),
      ...d.state.pullRequests.filter((p) => p.number === parsed.pr).map((p) => p.headSha),
    ];
    const stray = known.find((sha) => !follows.some((f) => sameSha(f, sha)));
    if (stray !== undefined) {
      return refuse(
        "out_of_order",
        `#${parsed.pr} is known at ${stray.slice(0, 12)}, not at the head this push replaced: read the PR instead.`,
      );
    }
  }
  let changed = 0;
  const at = head.slice(0, 12);
  for (const gate of d.state.gates) {
    if (gate.pr?.number !== parsed.pr) continue;
    if (gate.status !== "open" && gate.status !== "approved") continue;
    if (gate.pr.headSha === head) {
      // Already moved here by a read of the PR; the delivery says when GitHub reported it.
      if (gate.pr.seenAt === null && parsed.reportedAt !== null) {
        gate.pr = { ...gate.pr, seenAt: parsed.reportedAt };
        changed += 1;
      }
      continue;
    }
    const from = gate.pr.headSha;
    gate.pr = { number: parsed.pr, headSha: head, seenAt: parsed.reportedAt };
    changed += 1;
    addEffect(d, { kind: "gate_comment", key: `gate:${gate.key}:reopened:${at}`, gate: gate.key });
    if (gate.status === "open") {
      emit(d, "gate.reopened", {
        gate: gate.key,
        pr: parsed.pr,
        from,
        to: head,
        wasApproved: false,
      });
      continue;
    }
    const approvedBy = gate.resolvedBy;
    gate.status = "open";
    gate.resolvedBy = null;
    gate.resolvedAt = null;
    gate.note = null;
    emit(d, "gate.reopened", { gate: gate.key, pr: parsed.pr, from, to: head, approvedBy });
    addEffect(d, {
      kind: "review_request",
      key: `gate:${gate.key}:review:${at}`,
      pr: parsed.pr,
      reviewers: gate.requestedFrom.length > 0 ? gate.requestedFrom : d.state.goal.owners,
      gate: gate.key,
    });
  }
  for (const pr of d.state.pullRequests) {
    if (pr.number === parsed.pr && pr.headSha !== head) {
      pr.headSha = head;
      changed += 1;
    }
  }
  if (changed === 0) {
    return refuse(
      "invalid_state",
      `No gate or linked PR of this goal follows #${parsed.pr}'s head.`,
    );
  }
  return commit(d);
}
