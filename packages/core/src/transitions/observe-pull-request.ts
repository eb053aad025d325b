import { z } from "zod";
import { failureSignature } from "../failure-signature.ts";
import { finalReportText } from "../final-report.ts";
import { prChecksVerdict, prOutcome, sameSha } from "../pr-outcome.ts";
import { DEFAULT_REPAIR_ATTEMPTS } from "../repair-policy.ts";
import { ChangesRequested, PrCheck } from "../schemas/pr-monitor.ts";
import { DiffSize, Scope } from "../schemas/primitives.ts";
import type { GoalState, PullRequest } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { expireCiQuestions } from "./ci-gates.ts";
import { commit } from "./commit.ts";
import { completeTodo } from "./complete-todo.ts";
import type { Draft } from "./kit.ts";
import {
  appendEvidence,
  begin,
  emit,
  isRefused,
  parseInput,
  refuse,
  requireTrusted,
} from "./kit.ts";
import { expireWhere } from "./open-gate.ts";
import { actOnce, holdForOwnTodo } from "./own-todo-at-work.ts";

const Sha = z.string().regex(/^[0-9a-f]{7,64}$/);

/** A check as read: its output (title, summary, text) is read for a failure's signature, then dropped. */
const ObservedCheck = PrCheck.omit({ failure: true }).extend({
  output: z.string().max(200_000).default(""),
});

function toPrCheck(c: z.output<typeof ObservedCheck>): PrCheck {
  const { output, ...check } = c;
  const failure =
    check.status === "failure"
      ? failureSignature({ name: check.name, appId: check.appId, output })
      : null;
  return { ...check, failure };
}

/**
 * What the app read about a linked PR (webhook payloads re-read through the API, or the
 * reconcile backstop). Absent fields are unchanged; the app decides who counts as an
 * authorized reviewer before passing `changesRequested` in.
 */
export const PrObservation = z.object({
  number: z.number().int().positive(),
  state: z.enum(["open", "closed", "merged"]),
  headSha: Sha,
  draft: z.boolean().optional(),
  mergeable: z.boolean().nullable().optional(),
  mergeableState: z.string().max(40).nullable().optional(),
  /** Checks of the given head; results for another head are ignored. */
  checks: z.object({ sha: Sha, list: z.array(ObservedCheck).max(100) }).optional(),
  changesRequested: ChangesRequested.nullable().optional(),
  threadsResolved: z.boolean().optional(),
  mergeCommitSha: Sha.nullable().optional(),
  /** The checks the base requires, from every source the app read (see PrMonitor.required). */
  required: z.array(z.string().min(1).max(200)).max(100).optional(),
  /** The head commit's message asks to skip CI. */
  skipCi: z.boolean().optional(),
  /** GitHub's counts of what the PR changes at `headSha`. */
  size: DiffSize.optional(),
  /** `.github/loopx.yml` gates a merge (the default): a ready PR opens a `merge` gate. */
  mergeGate: z.boolean().default(true),
  /** Scopes the `when: merge` rules name besides `merge`: the merge gate covers them too. */
  mergeScopes: z.array(Scope).max(10).default([]),
  /** `repair.attempts` in `.github/loopx.yml`: repair todos per failure signature (0: ask at once). */
  repairAttempts: z.number().int().min(0).max(20).default(DEFAULT_REPAIR_ATTEMPTS),
});
export type PrObservation = z.input<typeof PrObservation>;

/**
 * The PR as JSON with every object's keys sorted: a PR loaded from the store has its keys in
 * the schema's order, one just written in the writer's, and only values may count as change.
 */
const snapshot = (pr: PullRequest): string =>
  JSON.stringify(pr, (_key, value: unknown) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );

/** Copies what was observed onto the PR; true when anything changed. */
function absorb(pr: PullRequest, o: z.output<typeof PrObservation>, now: Date): boolean {
  const before = snapshot(pr);
  const m = pr.monitor;
  if (!sameSha(pr.headSha, o.headSha)) {
    pr.headSha = o.headSha;
    // A new head has no results yet, and GitHub recomputes its mergeability.
    m.checks = [];
    m.checksSha = null;
    m.mergeable = null;
    m.size = null;
  }
  // CI that never reports is judged from the first sight of the head, never from before it
  // (other transitions may have moved `headSha` already: the seen head is tracked apart).
  if (m.headSeenSha === null || !sameSha(m.headSeenSha, pr.headSha)) {
    m.headSeenSha = pr.headSha;
    m.headSeenAt = now;
    m.skipCi = false;
  }
  if (o.required !== undefined) m.required = [...new Set(o.required)];
  if (o.skipCi !== undefined) m.skipCi = o.skipCi;
  if (o.size !== undefined) m.size = { sha: pr.headSha, ...o.size };
  pr.state = o.state;
  if (o.draft !== undefined) m.draft = o.draft;
  // GitHub's null says only that it started computing mergeability ("resubmit the request"):
  // a reading that began before an answer for this head, but lands after it, says nothing
  // new. A head that moved, or a base that changed, reaches here as a non-null answer later.
  if (!(o.mergeable === null && m.mergeable !== null)) {
    if (o.mergeable !== undefined) m.mergeable = o.mergeable;
    if (o.mergeableState !== undefined) m.mergeableState = o.mergeableState;
  }
  if (o.checks && sameSha(o.checks.sha, pr.headSha)) {
    m.checks = o.checks.list.map(toPrCheck);
    m.checksSha = o.checks.sha;
  }
  if (o.changesRequested !== undefined) m.changesRequested = o.changesRequested;
  if (o.threadsResolved !== undefined) m.threadsResolved = o.threadsResolved;
  if (o.mergeCommitSha !== undefined) m.mergeCommitSha = o.mergeCommitSha;
  m.repairLimit = o.repairAttempts;
  return snapshot(pr) !== before;
}

/**
 * The monitor's own questions answer themselves: a draft marked ready needs no "mark it
 * ready", and green checks need no "the checks keep failing".
 */
function expireAnswered(d: Draft, pr: PullRequest): boolean {
  const n = pr.number;
  const verdict = prChecksVerdict(pr, d.ctx.now);
  const green = verdict.kind === "green";
  const ci = expireCiQuestions(d, pr, verdict);
  const undrafted = pr.monitor.draft
    ? false
    : expireWhere(d, (g) => g.scopes.includes(`draft:${n}`), `#${n} is ready for review`);
  const repaired = green
    ? expireWhere(d, (g) => g.scopes.includes(`repair:${n}`), `#${n}'s checks are green`)
    : false;
  return undrafted || repaired || ci;
}

/**
 * Green checks on a newer head are what a repair todo was for: open repair todos of this PR
 * complete, with the green run as evidence (the goal goes on: the PR still has to merge).
 */
function settleRepairs(d: Draft, pr: PullRequest): boolean {
  const verdict = prChecksVerdict(pr, d.ctx.now);
  if (verdict.kind !== "green") return false;
  const open = d.state.todos.filter(
    (t) =>
      t.kind === "repair" &&
      pr.monitor.todos.includes(t.key) &&
      t.status !== "done" &&
      t.status !== "dropped" &&
      t.claim === null,
  );
  if (open.length === 0) return false;
  const evidence = appendEvidence(d, {
    kind: "check",
    summary: `required checks green on #${pr.number} at ${pr.headSha.slice(0, 12)}: ${verdict.passed.join(", ")}`,
    sha: pr.headSha,
  });
  for (const todo of open) {
    completeTodo(d, todo, {
      evidenceIds: [evidence],
      continuation: { kind: "goal_active" },
      by: `checks on #${pr.number}`,
    });
  }
  return true;
}

/**
 * The PR monitor's one step: record what GitHub says about a linked PR, then act on its ONE
 * outcome (pr-outcome.ts), once per fingerprint; what the PR's own todo still answers waits
 * for it (own-todo-at-work.ts). Observing needs no authority — it only mirrors GitHub — but
 * only the app and the system report observations.
 */
export function observePullRequest(
  state: GoalState,
  input: PrObservation,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(PrObservation, input);
  if (isRefused(parsed)) return parsed;
  const denied = requireTrusted(ctx, "report pull request state");
  if (denied) return denied;
  if (ctx.actor.kind === "human") {
    return refuse("not_authorized", "Pull request state comes from GitHub, not from a person.");
  }
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const pr = d.state.pullRequests.find((p) => p.number === parsed.number);
  if (!pr) return refuse("not_found", `#${parsed.number} is not linked to this goal.`);
  if (!pr.monitor.watching) {
    return refuse("invalid_state", `The watch of #${pr.number} ended (${pr.state}).`);
  }
  const absorbed = absorb(pr, parsed, d.ctx.now);
  const repaired = pr.state === "open" && settleRepairs(d, pr);
  const answered = pr.state === "open" && expireAnswered(d, pr);
  const settled = repaired || answered;
  const { outcome, noted } = holdForOwnTodo(d, pr, prOutcome(pr, d.ctx.now, parsed.repairAttempts));
  const changed = absorbed || settled || noted;
  const fresh = outcome.kind !== "quiet" && !pr.monitor.fingerprints.includes(outcome.fingerprint);
  if (!changed && !fresh) return refuse("duplicate", `Nothing new on #${pr.number}.`);
  // Mirroring GitHub's facts is quiet; only an outcome LoopX acts on shows on the status.
  d.status = fresh || settled;
  emit(d, "pull_request.observed", {
    pr: pr.number,
    headSha: pr.headSha,
    outcome: outcome.kind,
  });
  if (fresh) actOnce(d, pr, outcome, { gate: parsed.mergeGate, scopes: parsed.mergeScopes });
  const result = commit(d);
  if (result.ok && state.goal.status !== "done" && result.state.goal.status === "done") {
    result.effects.push({
      kind: "receipt",
      key: "final_report",
      text: finalReportText(result.state),
    });
  }
  return result;
}
