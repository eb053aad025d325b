import type { PrCheck } from "./schemas/pr-monitor.ts";
import type { PullRequest } from "./schemas/state.ts";

/** At most this many repair todos per PR; after that a person decides. */
export const MAX_REPAIR_ATTEMPTS = 3;

/**
 * The ONE thing the PR monitor does about a pull request, in precedence order (loopx
 * concepts §7): terminal state beats stale review data; red checks beat review feedback;
 * review feedback beats a conflicted branch; a draft asks its owner; the rest is quiet.
 * `fingerprint` names the outcome so the same fact, announced by many events, acts once.
 */
export type PrOutcome =
  | { kind: "merged"; fingerprint: string }
  | { kind: "closed"; fingerprint: string }
  | { kind: "repair"; fingerprint: string; failing: PrCheck[] }
  | { kind: "repairs_exhausted"; fingerprint: string; failing: PrCheck[] }
  | { kind: "review"; fingerprint: string }
  | { kind: "rebase"; fingerprint: string; why: "conflicts" | "behind" }
  | { kind: "draft"; fingerprint: string }
  | { kind: "ready"; fingerprint: string }
  | { kind: "quiet"; reason: string };

const head = (pr: PullRequest) => pr.headSha.slice(0, 12);

/** Short and full SHAs of one commit name the same head. */
export function sameSha(a: string, b: string): boolean {
  return a.length >= 7 && b.length >= 7 && (a.startsWith(b) || b.startsWith(a));
}

/** Checks that describe the current head; results for an older head say nothing now. */
export function currentChecks(pr: PullRequest): PrCheck[] {
  const sha = pr.monitor.checksSha;
  return sha !== null && sameSha(sha, pr.headSha) ? pr.monitor.checks : [];
}

/**
 * Review feedback still to address: a writer's "changes requested", unless every thread is
 * resolved and the head moved past the review (then the reviewer just has to look again).
 */
function reviewPending(pr: PullRequest): boolean {
  const review = pr.monitor.changesRequested;
  if (review === null) return false;
  const headNewer = !sameSha(review.commitId, pr.headSha);
  return !(pr.monitor.threadsResolved && headNewer);
}

export function prOutcome(pr: PullRequest): PrOutcome {
  const n = pr.number;
  if (pr.state === "merged") return { kind: "merged", fingerprint: `pr:${n}:merged` };
  if (pr.state === "closed") return { kind: "closed", fingerprint: `pr:${n}:closed` };

  const checks = currentChecks(pr);
  const failing = checks.filter((c) => c.status === "failure");
  if (failing.length > 0) {
    // One fingerprint per PR, head and set of failing checks: redelivery adds nothing.
    const names = failing.map((c) => c.name).sort();
    const fingerprint = `pr:${n}:repair:${head(pr)}:${names.join(",")}`;
    if (pr.monitor.repairAttempts >= MAX_REPAIR_ATTEMPTS) {
      return { kind: "repairs_exhausted", fingerprint: `pr:${n}:repairs_exhausted`, failing };
    }
    return { kind: "repair", fingerprint, failing };
  }
  const review = pr.monitor.changesRequested;
  if (review !== null && reviewPending(pr)) {
    return { kind: "review", fingerprint: `pr:${n}:review:${review.id}` };
  }
  if (pr.monitor.mergeable === false || pr.monitor.mergeableState === "dirty") {
    return { kind: "rebase", fingerprint: `pr:${n}:rebase:${head(pr)}`, why: "conflicts" };
  }
  // Branch protection requires an up-to-date branch and the base moved on: same remedy.
  if (pr.monitor.mergeableState === "behind") {
    return { kind: "rebase", fingerprint: `pr:${n}:rebase:${head(pr)}`, why: "behind" };
  }
  if (pr.monitor.draft) return { kind: "draft", fingerprint: `pr:${n}:draft:${head(pr)}` };
  if (pr.monitor.mergeable === null) {
    return { kind: "quiet", reason: "GitHub has not computed mergeability yet" };
  }
  if (checks.length === 0 || checks.some((c) => c.status === "pending")) {
    return { kind: "quiet", reason: "checks are still running" };
  }
  if (review !== null) return { kind: "quiet", reason: "waiting for the reviewer to look again" };
  return { kind: "ready", fingerprint: `pr:${n}:ready:${head(pr)}` };
}
