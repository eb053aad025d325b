import { type ChecksVerdict, checksVerdict } from "./checks-verdict.ts";
import { DEFAULT_REPAIR_ATTEMPTS, signaturesId, splitFailing } from "./repair-policy.ts";
import type { PrCheck } from "./schemas/pr-monitor.ts";
import type { PullRequest } from "./schemas/state.ts";

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
  /** `failing`: the failures out of attempts that no question asked about yet. */
  | { kind: "repairs_exhausted"; fingerprint: string; failing: PrCheck[]; limit: number }
  | { kind: "review"; fingerprint: string }
  | { kind: "rebase"; fingerprint: string; why: "conflicts" | "behind" }
  | { kind: "draft"; fingerprint: string }
  | { kind: "ready"; fingerprint: string }
  /** CI cannot say green as things stand; the owners are asked once per head. */
  | { kind: "ci_question"; fingerprint: string; verdict: CiQuestion }
  /** Workflow runs on the head wait for a person's approval. */
  | { kind: "ci_approval"; fingerprint: string; waiting: PrCheck[] }
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

/** The verdicts that ask the owners a question instead of waiting. */
export type CiQuestion = Extract<
  ChecksVerdict,
  { kind: "unrequired" | "skip_ci" | "not_passed" | "ci_did_not_run" }
>;

/** The verdict of the PR's current head, judged at `now` (see checks-verdict.ts). */
export function prChecksVerdict(pr: PullRequest, now: Date): ChecksVerdict {
  return checksVerdict({
    required: pr.monitor.required,
    checks: currentChecks(pr),
    skipCi: pr.monitor.skipCi,
    // Only the arrival of this very head starts its grace (another transition may move it).
    headSeenAt:
      pr.monitor.headSeenSha !== null && sameSha(pr.monitor.headSeenSha, pr.headSha)
        ? pr.monitor.headSeenAt
        : null,
    now,
  });
}

/**
 * `repairLimit`: repair todos per failure signature (`repair.attempts` in loopx.yml); a
 * signature past it is asked about once, and a failing head with nothing left to repair or
 * ask is quiet until a person acts or the failure changes.
 */
export function prOutcome(
  pr: PullRequest,
  now: Date,
  repairLimit: number = DEFAULT_REPAIR_ATTEMPTS,
): PrOutcome {
  const n = pr.number;
  if (pr.state === "merged") return { kind: "merged", fingerprint: `pr:${n}:merged` };
  if (pr.state === "closed") return { kind: "closed", fingerprint: `pr:${n}:closed` };

  const verdict = prChecksVerdict(pr, now);
  if (verdict.kind === "failing") {
    const { repairable, exhausted } = splitFailing(pr, verdict.failing, repairLimit);
    if (repairable.length > 0) {
      // One fingerprint per PR, head and set of failures: redelivery adds nothing.
      const names = [...new Set(repairable.map((c) => c.name))].sort().join(",").slice(0, 200);
      const fingerprint = `pr:${n}:repair:${head(pr)}:${names}:${signaturesId(repairable)}`;
      return { kind: "repair", fingerprint, failing: repairable };
    }
    // This head is what a repair already answered: the limit is judged on the head its
    // last repair pushes, so `attempts` repairs are all worked before anyone is asked.
    const repairing = `pr:${n}:repair:${head(pr)}:`;
    if (pr.monitor.fingerprints.some((f) => f.startsWith(repairing))) {
      return { kind: "quiet", reason: "a repair of this head is queued or under way" };
    }
    if (exhausted.length > 0) {
      const fingerprint = `pr:${n}:repairs_exhausted:${signaturesId(exhausted)}`;
      return { kind: "repairs_exhausted", fingerprint, failing: exhausted, limit: repairLimit };
    }
    return { kind: "quiet", reason: "the owners were asked about these failures" };
  }
  if (verdict.kind === "awaiting_approval") {
    const fingerprint = `pr:${n}:ci_approval:${head(pr)}`;
    return { kind: "ci_approval", fingerprint, waiting: verdict.waiting };
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
  switch (verdict.kind) {
    case "unknown":
      return { kind: "quiet", reason: "the required checks are not known yet" };
    case "pending":
      return { kind: "quiet", reason: "required checks are still running" };
    case "unrequired":
      // One question per PR, not per head: the repository's settings, not the head, lack it.
      return { kind: "ci_question", fingerprint: `pr:${n}:ci:unrequired`, verdict };
    case "skip_ci":
    case "not_passed":
    case "ci_did_not_run":
      return {
        kind: "ci_question",
        fingerprint: `pr:${n}:ci:${verdict.kind}:${head(pr)}`,
        verdict,
      };
  }
  if (review !== null) return { kind: "quiet", reason: "waiting for the reviewer to look again" };
  return { kind: "ready", fingerprint: `pr:${n}:ready:${head(pr)}` };
}
