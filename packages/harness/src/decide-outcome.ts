import type { ClaimRead } from "./agent-claim.ts";
import type {
  AgentVerdict,
  MeterReading,
  SliceOutcome,
  SliceReport,
  StopReason,
  ValidationRun,
  WorkspaceDelta,
} from "./slice-types.ts";

export interface OutcomeFacts {
  stop: StopReason;
  exitCode: number | null;
  spawnError: string | null;
  verdict: AgentVerdict;
  reading: MeterReading;
  limits: { wallMs: number; idleMs: number; maxTurns: number; maxUsd: number };
  claim: ClaimRead;
  validation: ValidationRun | null;
  delta: WorkspaceDelta;
}

export interface DecidedOutcome {
  outcome: SliceOutcome;
  failure: SliceReport["failure"];
  reason: string;
}

/**
 * Maps what happened to one typed outcome. Limits come first (the slice was cut short
 * whatever it did), then the harness's own failure, then the result file, then validation
 * and the work tree. The agent's claimed outcome can only lower the verdict, never raise it.
 */
export function decideOutcome(f: OutcomeFacts): DecidedOutcome {
  const usd = f.reading.usd.toFixed(4);
  if (f.stop === "aborted") {
    return { outcome: "host_failure", failure: "host_failure", reason: "the slice was cancelled" };
  }
  if (f.stop === "spawn_failed") {
    return {
      outcome: "host_failure",
      failure: "host_failure",
      reason: `${f.spawnError ?? "the harness did not start"}; install it on the runner`,
    };
  }
  if (f.stop === "wall") {
    return {
      outcome: "timeout",
      failure: null,
      reason: `wall-clock limit of ${f.limits.wallMs} ms reached; the process group was killed`,
    };
  }
  if (f.stop === "idle") {
    return {
      outcome: "timeout",
      failure: null,
      reason: `no output for ${f.limits.idleMs} ms; the process group was killed`,
    };
  }
  if (
    f.stop === "over_budget" ||
    f.verdict.kind === "over_budget" ||
    f.reading.usd > f.limits.maxUsd
  ) {
    return {
      outcome: "over_budget",
      failure: null,
      reason: `spent $${usd}, over the slice limit of $${f.limits.maxUsd}`,
    };
  }
  // The proxy refused the model once the ceiling was spent: the harness's failure after that
  // is the budget's doing, not its own.
  if ((f.reading.overCap ?? 0) > 0) {
    return {
      outcome: "over_budget",
      failure: null,
      reason: `spent $${usd}, the slice's ceiling of $${f.limits.maxUsd}; the metering proxy refused ${f.reading.overCap} further model call(s)`,
    };
  }
  if (f.stop === "turn_limit" || f.verdict.kind === "turn_limit") {
    return {
      outcome: "turn_limit",
      failure: null,
      reason: `turn limit of ${f.limits.maxTurns} reached after ${f.reading.turns} turns`,
    };
  }
  if (f.verdict.kind === "error") {
    return { outcome: "host_failure", failure: "harness_error", reason: f.verdict.message };
  }
  if (!f.claim.ok) {
    return { outcome: "validation_failed", failure: null, reason: f.claim.error };
  }
  if (f.validation && !f.validation.passed) {
    return {
      outcome: "validation_failed",
      failure: null,
      reason: f.validation.timedOut
        ? `validation \`${f.validation.command}\` timed out`
        : `validation \`${f.validation.command}\` failed (exit ${f.validation.exitCode ?? "none"})`,
    };
  }
  const claimed = f.claim.claim.outcome;
  const finished = claimed === "completed" && f.claim.claim.continuation !== null;
  if (f.delta.known && !f.delta.changed && finished) {
    // Passed on to the kernel as a claim: with nothing changed, only a person's tick (or a
    // plan's acceptance) can complete the todo, so the checklist shows it awaiting evidence.
    const planned = f.claim.claim.proposedTodos.length;
    return {
      outcome: "claimed_completion",
      failure: null,
      reason:
        planned > 0
          ? `a plan of ${planned} proposed todo(s); no file changed, which a plan needs not`
          : "the agent says the todo is done, but the work tree did not change",
    };
  }
  if (f.delta.known && !f.delta.changed) {
    return {
      outcome: "no_progress",
      failure: null,
      reason: "the work tree did not change and no commit was made",
    };
  }
  if (!f.delta.known && (claimed === "no_change" || claimed === "failed")) {
    return {
      outcome: "no_progress",
      failure: null,
      reason: `the agent reported "${claimed}" and changes cannot be seen (not a git work tree)`,
    };
  }
  const checked = f.validation ? "validation passed" : "no validation command configured";
  if (claimed === "completed" && f.claim.claim.continuation !== null) {
    return {
      outcome: "validated_completion",
      failure: null,
      reason: `${checked}; the agent completed the todo`,
    };
  }
  return {
    outcome: "validated_progress",
    failure: null,
    reason: `${checked}; the work tree changed`,
  };
}
