import type { PrCheck } from "./schemas/pr-monitor.ts";

/**
 * How long after GitHub first showed a head LoopX waits for its required checks to appear
 * before it says CI did not run (a workflow filtered out, Actions disabled, a webhook lost).
 */
export const CI_GRACE_MS = 10 * 60_000;

/**
 * What the checks on a PR's exact head say. Only `green` completes branch work; every other
 * verdict is either a wait or a question to the owners, never green by default.
 */
export type ChecksVerdict =
  /** Every required check has a successful completed run on the head. */
  | { kind: "green"; passed: string[] }
  /** A check failed on the head: the agent can repair it. */
  | { kind: "failing"; failing: PrCheck[] }
  /** Runs wait for a person to approve them (`action_required`): a gate. */
  | { kind: "awaiting_approval"; waiting: PrCheck[] }
  /** The repository requires no check on the base: nothing can say green. */
  | { kind: "unrequired" }
  /** The head asks GitHub to skip CI; the required checks will never run on it. */
  | { kind: "skip_ci" }
  /** Required checks completed without succeeding (neutral, skipped): not green. */
  | { kind: "not_passed"; checks: PrCheck[] }
  /** The grace after the head appeared is over and required checks never reported. */
  | { kind: "ci_did_not_run"; missing: string[] }
  /** Runs still going, or the grace not over yet. */
  | { kind: "pending"; missing: string[] }
  /** The required set has not been read yet. */
  | { kind: "unknown" };

export interface ChecksFacts {
  /** Required check names for the base (null: not read yet). */
  required: readonly string[] | null;
  /** The latest result per check name, all of the head itself. */
  checks: readonly PrCheck[];
  /** The head commit's message asks to skip CI. */
  skipCi: boolean;
  /** When LoopX first saw this head (null: unknown, so the grace is never over). */
  headSeenAt: Date | null;
  now: Date;
}

/**
 * GitHub skips `push` and `pull_request` workflows for these strings in the head commit's
 * message, or a final `skip-checks: true` trailer ("Skipping workflow runs").
 */
const SKIP_MARKERS = ["[skip ci]", "[ci skip]", "[no ci]", "[skip actions]", "[actions skip]"];

export function skipsCi(message: string): boolean {
  const lower = message.toLowerCase();
  if (SKIP_MARKERS.some((m) => lower.includes(m))) return true;
  const lines = message.trimEnd().split("\n");
  return /^skip-checks:\s?true$/i.test(lines[lines.length - 1]?.trim() ?? "");
}

export function checksVerdict(facts: ChecksFacts): ChecksVerdict {
  const failing = facts.checks.filter((c) => c.status === "failure");
  if (failing.length > 0) return { kind: "failing", failing };
  const waiting = facts.checks.filter((c) => c.status === "action_required");
  if (waiting.length > 0) return { kind: "awaiting_approval", waiting };
  if (facts.required === null) return { kind: "unknown" };
  if (facts.required.length === 0) return { kind: "unrequired" };
  if (facts.skipCi) return { kind: "skip_ci" };
  const byName = new Map(facts.checks.map((c) => [c.name, c]));
  const required = [...new Set(facts.required)];
  const results = required.map((name) => ({ name, check: byName.get(name) }));
  const notPassed = results.flatMap(({ check }) =>
    check && (check.status === "neutral" || check.status === "skipped") ? [check] : [],
  );
  if (notPassed.length > 0) return { kind: "not_passed", checks: notPassed };
  const missing = results.filter((r) => r.check === undefined).map((r) => r.name);
  const running = results.some((r) => r.check?.status === "pending");
  if (missing.length === 0 && !running) return { kind: "green", passed: required };
  const graceOver =
    facts.headSeenAt !== null && facts.now.getTime() - facts.headSeenAt.getTime() >= CI_GRACE_MS;
  if (missing.length > 0 && !running && graceOver) return { kind: "ci_did_not_run", missing };
  return { kind: "pending", missing };
}
