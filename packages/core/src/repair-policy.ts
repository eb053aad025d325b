import { fnv1a64 } from "./failure-signature.ts";
import type { PrCheck, RepairCount } from "./schemas/pr-monitor.ts";
import type { PullRequest } from "./schemas/state.ts";

/** Repair todos per failure signature unless `.github/loopx.yml` says `repair: {attempts}`. */
export const DEFAULT_REPAIR_ATTEMPTS = 3;
/** The default limit (kept under its old name). */
export const MAX_REPAIR_ATTEMPTS = DEFAULT_REPAIR_ATTEMPTS;

/** A failed check's signature; one read before signatures existed counts by name and app. */
export function repairKey(check: PrCheck): string {
  return check.failure?.key ?? `${check.name.slice(0, 60)}|${check.appId ?? "status"}|line:none`;
}

/** The legacy question's fingerprint: one per PR, asked before signatures were counted. */
const legacyAsked = (pr: PullRequest) => `pr:${pr.number}:repairs_exhausted`;

/**
 * What one signature has spent. A row from before signatures has no counts, only the PR's
 * total: that total is the first signature's, so an in-flight PR keeps its remaining tries.
 */
export function repairCount(pr: PullRequest, key: string): RepairCount {
  const m = pr.monitor;
  const known = m.repairs.find((r) => r.key === key);
  if (known) return known;
  if (m.repairs.length > 0) return { key, attempts: 0, asked: false };
  return { key, attempts: m.repairAttempts, asked: m.fingerprints.includes(legacyAsked(pr)) };
}

export interface RepairSplit {
  /** Failures with attempts left: the next repair todo is for them. */
  repairable: PrCheck[];
  /** Failures out of attempts whose owners were not asked yet. */
  exhausted: PrCheck[];
}

/** Splits a PR's failing checks by what their signatures have left under `limit`. */
export function splitFailing(pr: PullRequest, failing: PrCheck[], limit: number): RepairSplit {
  const split: RepairSplit = { repairable: [], exhausted: [] };
  for (const check of failing) {
    const count = repairCount(pr, repairKey(check));
    if (count.attempts < limit) split.repairable.push(check);
    else if (!count.asked) split.exhausted.push(check);
  }
  return split;
}

/** One short, stable name for a set of signatures (fingerprints are capped at 300 chars). */
export function signaturesId(checks: PrCheck[]): string {
  return fnv1a64([...new Set(checks.map(repairKey))].sort().join("\n"));
}

/** Writes every signature's new count at once: a legacy total is read for all before any is kept. */
function update(pr: PullRequest, checks: PrCheck[], change: (c: RepairCount) => RepairCount): void {
  const keys = [...new Set(checks.map(repairKey))];
  const next = keys.map((key) => change({ ...repairCount(pr, key) }));
  const m = pr.monitor;
  // The oldest signatures go first when a PR has had more problems than are kept.
  m.repairs = [...m.repairs.filter((r) => !keys.includes(r.key)), ...next].slice(-50);
}

/** A repair todo was made for these failures: each signature spends one attempt. */
export function countRepair(pr: PullRequest, checks: PrCheck[]): void {
  update(pr, checks, (c) => ({ ...c, attempts: c.attempts + 1 }));
  pr.monitor.repairAttempts += 1;
}

/** The owners were asked about these failures: no second question, no further repair. */
export function markAsked(pr: PullRequest, checks: PrCheck[]): void {
  update(pr, checks, (c) => ({ ...c, asked: true }));
}
