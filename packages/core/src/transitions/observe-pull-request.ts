import { z } from "zod";
import { renderDataBlock } from "../brief-text.ts";
import { finalReportText } from "../final-report.ts";
import { type PrOutcome, prChecksVerdict, prOutcome, sameSha } from "../pr-outcome.ts";
import { ChangesRequested, PrCheck } from "../schemas/pr-monitor.ts";
import { Scope } from "../schemas/primitives.ts";
import type { GoalState, PullRequest } from "../schemas/state.ts";
import type { Todo } from "../schemas/todo.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { releaseAwaiting } from "./await-pull-request.ts";
import { askAboutCi, ciScopes, expireCiQuestions, expireWhere } from "./ci-gates.ts";
import { completeTodo, continuationAfter } from "./complete-todo.ts";
import { openGateIn } from "./gates.ts";
import type { Draft } from "./kit.ts";
import {
  appendEvidence,
  appendTodo,
  begin,
  commit,
  emit,
  isRefused,
  parseInput,
  refuse,
  requireTrusted,
  resetBackoff,
} from "./kit.ts";

const Sha = z.string().regex(/^[0-9a-f]{7,64}$/);

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
  checks: z.object({ sha: Sha, list: z.array(PrCheck).max(100) }).optional(),
  changesRequested: ChangesRequested.nullable().optional(),
  threadsResolved: z.boolean().optional(),
  mergeCommitSha: Sha.nullable().optional(),
  /** The checks the base requires, from every source the app read (see PrMonitor.required). */
  required: z.array(z.string().min(1).max(200)).max(100).optional(),
  /** The head commit's message asks to skip CI. */
  skipCi: z.boolean().optional(),
  /** `.github/loopx.yml` gates a merge (the default): a ready PR opens a `merge` gate. */
  mergeGate: z.boolean().default(true),
  /** Scopes the `when: merge` rules name besides `merge`: the merge gate covers them too. */
  mergeScopes: z.array(Scope).max(10).default([]),
});
export type PrObservation = z.input<typeof PrObservation>;

/** Copies what was observed onto the PR; true when anything changed. */
function absorb(pr: PullRequest, o: z.output<typeof PrObservation>, now: Date): boolean {
  const before = JSON.stringify(pr);
  const m = pr.monitor;
  if (!sameSha(pr.headSha, o.headSha)) {
    pr.headSha = o.headSha;
    // A new head has no results yet, and GitHub recomputes its mergeability.
    m.checks = [];
    m.checksSha = null;
    m.mergeable = null;
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
  pr.state = o.state;
  if (o.draft !== undefined) m.draft = o.draft;
  if (o.mergeable !== undefined) m.mergeable = o.mergeable;
  if (o.mergeableState !== undefined) m.mergeableState = o.mergeableState;
  if (o.checks && sameSha(o.checks.sha, pr.headSha)) {
    m.checks = o.checks.list;
    m.checksSha = o.checks.sha;
  }
  if (o.changesRequested !== undefined) m.changesRequested = o.changesRequested;
  if (o.threadsResolved !== undefined) m.threadsResolved = o.threadsResolved;
  if (o.mergeCommitSha !== undefined) m.mergeCommitSha = o.mergeCommitSha;
  return JSON.stringify(pr) !== before;
}

function checkLines(failing: z.output<typeof PrCheck>[]): string {
  return failing.map((c) => `${c.name}: failed${c.url ? ` (${c.url})` : ""}`).join("\n");
}

/** The gates bound to a PR that ends: nothing is left to approve on it. */
function expireGates(d: Draft, pr: number): void {
  expireWhere(
    d,
    (g) =>
      g.pr?.number === pr ||
      g.scopes.some((s) => [`draft:${pr}`, `repair:${pr}`, ...ciScopes(pr)].includes(s)),
    `#${pr} is no longer open`,
  );
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

function onMerged(d: Draft, pr: PullRequest): void {
  pr.monitor.watching = false;
  expireGates(d, pr.number);
  const sha = pr.monitor.mergeCommitSha ?? pr.headSha;
  const evidence = appendEvidence(d, {
    kind: "pr",
    summary: `#${pr.number} merged as ${sha.slice(0, 12)}`,
    todo: pr.todo,
    sha,
  });
  emit(d, "pull_request.merged", { pr: pr.number, sha });
  d.checklist = true;
  const servedKeys = new Set([...(pr.todo ? [pr.todo] : []), ...pr.monitor.todos]);
  const served = d.state.todos.filter(
    (t) => servedKeys.has(t.key) && t.status !== "done" && t.status !== "dropped",
  );
  // Work remains elsewhere: the goal goes on; nothing remains: the merge finished it.
  const continuation = continuationAfter(d, servedKeys, `merged in #${pr.number}`);
  for (const todo of served) {
    completeTodo(d, todo, {
      evidenceIds: [evidence],
      continuation,
      by: `#${pr.number}`,
      delivered: true,
    });
  }
}

function onClosed(d: Draft, pr: PullRequest): void {
  pr.monitor.watching = false;
  expireGates(d, pr.number);
  appendEvidence(d, {
    kind: "pr",
    summary: `#${pr.number} closed without merging`,
    todo: pr.todo,
  });
  emit(d, "pull_request.closed", { pr: pr.number });
  for (const todo of d.state.todos) {
    if (todo.key === pr.todo) releaseAwaiting(d, todo, `#${pr.number} was closed unmerged`);
  }
  // Its work did not land: the plan must change (requestReplan's effect, without a person).
  d.state.goal.replanRequested = true;
  emit(d, "goal.replan_requested", { reason: `#${pr.number} was closed unmerged` });
  resetBackoff(d, `#${pr.number} closed`);
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

/** The todo works on this PR: it runs on the PR's branch and completes when the PR merges. */
function serve(pr: PullRequest, todo: Todo): void {
  pr.monitor.todos = [...pr.monitor.todos, todo.key].slice(-100);
}

/**
 * Outcomes that make a PR unmergeable as it stands (whatever held when its gate opened). A
 * change request is not among them: the review todo's push moves the gate to the new head,
 * where the owner judges the answer to the review.
 */
const NOT_READY = new Set<PrOutcome["kind"]>([
  "repair",
  "repairs_exhausted",
  "rebase",
  "draft",
  "ci_question",
  "ci_approval",
]);

function act(
  d: Draft,
  pr: PullRequest,
  outcome: PrOutcome,
  merge: { gate: boolean; scopes: readonly string[] },
): void {
  const n = pr.number;
  if (NOT_READY.has(outcome.kind)) {
    // A merge question asked while the PR was ready must not be approvable once it is not
    // (a commit status turned red on the same head); it asks again when the PR is ready.
    expireWhere(
      d,
      (g) => g.pr?.number === n && g.scopes.includes("merge"),
      `#${n} is no longer ready (${outcome.kind})`,
    );
  }
  switch (outcome.kind) {
    case "merged":
      onMerged(d, pr);
      return;
    case "closed":
      onClosed(d, pr);
      return;
    case "repair": {
      pr.monitor.repairAttempts += 1;
      for (const c of outcome.failing) {
        appendEvidence(d, {
          kind: "check",
          summary: `${c.name} failed on #${n} at ${pr.headSha.slice(0, 12)}`,
          todo: pr.todo,
          url: c.url,
          sha: pr.headSha,
        });
      }
      const names = outcome.failing.map((c) => c.name).join(", ");
      serve(
        pr,
        appendTodo(d, {
          title: `Fix failing checks on #${n}: ${names}`.slice(0, 256),
          detail: renderDataBlock(`failing checks of #${n}`, checkLines(outcome.failing), 1800),
          kind: "repair",
          origin: "pr-monitor",
        }),
      );
      resetBackoff(d, `checks failed on #${n}`);
      return;
    }
    case "repairs_exhausted":
      openGateIn(d, {
        question: `#${n} still fails its checks (${outcome.failing.map((c) => c.name).join(", ")}) after ${pr.monitor.repairAttempts} repair attempts, so LoopX stops repairing it. Fix it yourself, or tell LoopX how (a comment, or /loopx todo add …); this question closes when the checks are green.`,
        scopes: [`repair:${n}`],
        todo: pr.todo,
      });
      return;
    case "review": {
      const review = pr.monitor.changesRequested;
      if (!review) return;
      serve(
        pr,
        appendTodo(d, {
          title: `Address @${review.by}'s review on #${n}`,
          detail: renderDataBlock(`review by @${review.by} on #${n}`, review.body, 1800),
          kind: "review",
          origin: "pr-monitor",
        }),
      );
      resetBackoff(d, `changes requested on #${n}`);
      return;
    }
    case "rebase":
      serve(
        pr,
        appendTodo(d, {
          title:
            outcome.why === "behind"
              ? `Update #${n}'s branch: it is behind its base, which must be merged in first`
              : `Update #${n}'s branch: it conflicts with its base`,
          kind: "rebase",
          origin: "pr-monitor",
        }),
      );
      resetBackoff(d, `#${n} ${outcome.why === "behind" ? "is behind its base" : "conflicts"}`);
      return;
    case "draft":
      openGateIn(d, {
        question: `#${n} is a draft. Mark it ready for review when it should be reviewed and merged (this question then closes), or tell LoopX what it still needs.`,
        scopes: [`draft:${n}`],
        todo: pr.todo,
      });
      return;
    case "ci_question":
    case "ci_approval":
      askAboutCi(d, pr, outcome);
      return;
    case "ready": {
      if (!merge.gate) return;
      const bound = d.state.gates.some(
        (g) =>
          g.pr?.number === n &&
          g.scopes.includes("merge") &&
          (g.status === "open" || g.status === "approved"),
      );
      if (bound) return;
      openGateIn(d, {
        question: `#${n} is ready: checks are green and no changes are requested. Approve its current head to let it be merged (LoopX never merges by itself).`,
        scopes: [...new Set(["merge", ...merge.scopes])],
        todo: pr.todo,
        pr: { number: n, headSha: pr.headSha },
      });
      return;
    }
    case "quiet":
      return;
  }
}

/**
 * The PR monitor's one step: record what GitHub says about a linked PR, then act on its ONE
 * outcome (pr-outcome.ts), once per fingerprint. Observing needs no authority — it only
 * mirrors GitHub — but only the app and the system report observations.
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
  const changed = absorbed || settled;
  const outcome = prOutcome(pr, d.ctx.now);
  const fresh = outcome.kind !== "quiet" && !pr.monitor.fingerprints.includes(outcome.fingerprint);
  if (!changed && !fresh) return refuse("duplicate", `Nothing new on #${pr.number}.`);
  // Mirroring GitHub's facts is quiet; only an outcome LoopX acts on shows on the status.
  d.status = fresh || settled;
  emit(d, "pull_request.observed", {
    pr: pr.number,
    headSha: pr.headSha,
    outcome: outcome.kind,
  });
  if (fresh) {
    pr.monitor.fingerprints = [...pr.monitor.fingerprints, outcome.fingerprint].slice(-200);
    act(d, pr, outcome, { gate: parsed.mergeGate, scopes: parsed.mergeScopes });
  }
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
