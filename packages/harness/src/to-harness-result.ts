import {
  AGENT_CLAIM_PREFIX,
  agentClaimSummary,
  type FailureKind,
  HANDOFF_MAX_CHARS,
  HarnessResult,
  JobRequest,
  PathGlob,
  Scope,
  type TickOutcome,
  TodoKey,
} from "@loopx/core";
import type { AgentClaim } from "./agent-claim.ts";
import type { SliceOutcome, SliceReport } from "./slice-types.ts";

const EVIDENCE_MAX = 20;
const SUMMARY_MAX = 500;

const OUTCOMES: Record<SliceOutcome, { outcome: TickOutcome; failure: FailureKind | null }> = {
  validated_progress: { outcome: "progress", failure: null },
  validated_completion: { outcome: "completed", failure: null },
  claimed_completion: { outcome: "completed", failure: null },
  no_progress: { outcome: "no_change", failure: null },
  host_failure: { outcome: "failed", failure: "host_failure" },
  validation_failed: { outcome: "failed", failure: "validation_failed" },
  timeout: { outcome: "failed", failure: "timeout" },
  turn_limit: { outcome: "failed", failure: "turn_limit" },
  over_budget: { outcome: "failed", failure: "budget_exceeded" },
  // Cut short before it could finish: a tick the App did not interrupt is charged as a timeout.
  interrupted: { outcome: "failed", failure: "timeout" },
  // Stopped by the action itself before the lease ends: a timeout the work of which is kept.
  checkpoint: { outcome: "failed", failure: "timeout" },
};

/**
 * The report as the tick API takes it (core's HarnessResult). Pure. The agent's words fill
 * the handoff and evidence, clamped to the schema's bounds and marked as its claim; outcome,
 * failure, validation, commits and cost come from what the adapter observed. The validation
 * run travels once, as `validation`: the kernel records it as evidence.
 */
export function toHarnessResult(report: SliceReport, todo: string): HarnessResult {
  const mapped = OUTCOMES[report.outcome];
  const failure =
    report.outcome === "host_failure" ? (report.failure ?? "host_failure") : mapped.failure;
  const claim = report.claim;
  const observed: HarnessResult["evidence"] = [];
  if (mapped.outcome === "failed") {
    const detail = report.claimError ?? report.reason;
    const room = SUMMARY_MAX - detail.length - 8;
    const tail = room > 0 ? report.outputTail.slice(-room) : "";
    observed.push({
      kind: "log",
      summary: clamp(`${detail}\n…${tail}`, SUMMARY_MAX),
      url: null,
      sha: null,
    });
  }
  const claimed = (claim?.evidence ?? []).map((e) => ({
    kind: e.kind,
    summary: agentClaimSummary(clamp(e.summary, SUMMARY_MAX - AGENT_CLAIM_PREFIX.length)),
    url: e.url,
    sha: e.sha,
  }));

  return HarnessResult.parse({
    todo,
    outcome: mapped.outcome,
    failure,
    validation: report.validation
      ? {
          command: report.validation.command,
          exitCode: report.validation.exitCode,
          passed: report.validation.passed,
          summary: report.validation.summary,
        }
      : null,
    commits: report.delta.commits,
    changed: report.delta.known && report.delta.changed,
    evidence: [...observed, ...claimed].slice(0, EVIDENCE_MAX),
    handoff: handoff(report, todo),
    continuation: mapped.outcome === "completed" ? (claim?.continuation ?? null) : null,
    proposedTodos: (claim?.proposedTodos ?? []).slice(0, 10).map((t) => ({
      title: clamp(t.title, 256),
      detail: clamp(t.detail, 2000),
      requiredScopes: validScopes(t.requiredScopes),
      paths: validPaths(t.paths),
      ...(t.after ? { after: clamp(t.after, 256) } : {}),
    })),
    gateRequests: (claim?.gateRequests ?? [])
      .map((g) => ({ question: clamp(g.question, 2000), scopes: validScopes(g.scopes) }))
      .filter((g) => g.scopes.length > 0)
      .slice(0, 3),
    ...(claim?.revisions ? { revisions: revisions(claim.revisions) } : {}),
    ...jobOf(claim?.job),
    cost: report.cost,
    withheld: report.withheld,
    sessionId: report.sessionId ? clamp(report.sessionId, 200) : null,
  });
}

/** A job request the tick API can take; one it cannot is left out rather than failing the result. */
function jobOf(
  job: { name: string; inputs: Record<string, string | number | boolean> } | null | undefined,
) {
  const parsed = job ? JobRequest.safeParse(job) : null;
  return parsed?.success ? { job: parsed.data } : {};
}

/** The agent's handoff when it gave one, clamped to the shared budget; otherwise ours. */
function handoff(report: SliceReport, todo: string): HarnessResult["handoff"] {
  const h = report.claim?.handoff;
  const prefix = report.outcome.startsWith("validated_")
    ? ""
    : `[${report.outcome}] ${report.reason}. `;
  if (!h) {
    return {
      done: clamp(`${prefix}No handoff from the agent.`, 1000),
      next: `Continue ${todo} from the brief; the branch holds any work in progress.`,
      questions: [],
    };
  }
  const questions: string[] = [];
  let qChars = 0;
  for (const q of h.questions.slice(0, 10).map((x) => clamp(x, 500))) {
    if (qChars + q.length > HANDOFF_MAX_CHARS / 3) break;
    questions.push(q);
    qChars += q.length;
  }
  const room = HANDOFF_MAX_CHARS - qChars;
  const done = clamp(`${prefix}${h.done}`, Math.floor(room / 2));
  const next = clamp(h.next, room - done.length);
  return { done, next, questions };
}

/** Revisions as the kernel takes them: malformed keys dropped, text clamped, lists capped. */
function revisions(r: NonNullable<AgentClaim["revisions"]>): HarnessResult["revisions"] {
  const keys = (list: string[], max: number) =>
    list.filter((k) => TodoKey.safeParse(k).success).slice(0, max);
  return {
    drop: keys(r.drop, 20),
    reword: r.reword
      .filter((w) => TodoKey.safeParse(w.todo).success)
      .slice(0, 20)
      .map((w) => ({ todo: w.todo, title: clamp(w.title, 256), detail: clamp(w.detail, 2000) })),
    order: keys(r.order, 50),
  };
}

/** Scopes as the kernel takes them: malformed ones are dropped, at most ten kept. */
function validScopes(scopes: string[]): string[] {
  return scopes.filter((s) => Scope.safeParse(s).success).slice(0, 10);
}

/** Globs a todo declares it will touch; one that is not a repository-relative glob is dropped. */
function validPaths(paths: string[]): string[] {
  return paths.filter((p) => PathGlob.safeParse(p).success).slice(0, 20);
}

function clamp(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1))}…`;
}
