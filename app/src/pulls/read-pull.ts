import {
  type ChangesRequested,
  isLoopxCheck,
  type PrObservation,
  sameSha,
  skipsCi,
} from "@loopx/core";
import type { GitHubReads, PullSnapshot, RepoName, ReviewSnapshot } from "@loopx/github";
import { actorFor } from "../authority.ts";

/**
 * The latest "changes requested" that still stands from someone with write access. A
 * reviewer's later approval or dismissal withdraws theirs; reviews by people without write
 * access (anyone can review a public repository) and by bots never count.
 */
async function standingChangeRequest(
  port: GitHubReads,
  repo: RepoName,
  reviews: ReviewSnapshot[],
): Promise<ChangesRequested | null> {
  const latest = new Map<string, ReviewSnapshot>();
  for (const r of reviews) {
    if (r.state === "commented" || r.state === "pending") continue;
    const seen = latest.get(r.author);
    if (!seen || seen.id < r.id) latest.set(r.author, r);
  }
  const standing = [...latest.values()]
    .filter((r) => r.state === "changes_requested" && /^[0-9a-f]{7,64}$/.test(r.commitId))
    .sort((a, b) => b.id - a.id);
  for (const review of standing) {
    // Authority is read now, from the collaborators API — never from author_association.
    const actor = await actorFor(port, repo, { login: review.author, type: "User" });
    if (!actor.trusted) continue;
    return {
      id: review.id,
      by: review.author,
      commitId: review.commitId,
      body: review.body.slice(0, 4000),
      at: review.submittedAt ?? new Date(0),
      url: review.url,
    };
  }
  return null;
}

/**
 * Whether a review that the head has moved past is settled in its threads: every thread of
 * the PR resolved, and the review had threads of its own (a review with only a body has
 * nothing to resolve, so its points stand). Threads are read only when they can matter.
 */
async function threadsResolved(
  port: GitHubReads,
  repo: RepoName,
  number: number,
  headSha: string,
  review: ChangesRequested | null,
): Promise<boolean> {
  if (review === null || sameSha(review.commitId, headSha)) return false;
  const { threads, complete } = await port.listReviewThreads(repo, number);
  const own = threads.filter((t) => t.reviewId === review.id);
  return complete && own.length > 0 && threads.every((t) => t.resolved);
}

/**
 * Workflow runs wait for a maintainer's approval only when they come from a fork ("Approving
 * workflow runs from public forks" / "… from private forks" in GitHub's Actions docs): a head
 * in the base repository itself cannot have any, so they are not asked for. A deleted fork
 * (no head repository) is still asked about.
 */
function canAwaitApproval(repo: RepoName, headRepo: string | null): boolean {
  return headRepo?.toLowerCase() !== `${repo.owner}/${repo.repo}`.toLowerCase();
}

type ReadOptions = Parameters<typeof readPull>[3];

/** What the PR itself says (state, head, draft, mergeability); its checks and reviews unchanged. */
function pullOnly(pull: PullSnapshot, opts: ReadOptions): PrObservation {
  const state = pull.merged ? "merged" : pull.state;
  return {
    number: pull.number,
    state,
    headSha: pull.headSha,
    ...(state === "open"
      ? { draft: pull.draft, mergeable: pull.mergeable, mergeableState: pull.mergeableState }
      : { mergeCommitSha: pull.mergeCommitSha }),
    ...(state === "open" && pull.size !== null ? { size: pull.size } : {}),
    mergeGate: opts.mergeGate,
    mergeScopes: [...(opts.mergeScopes ?? [])],
    ...(opts.repairAttempts !== undefined ? { repairAttempts: opts.repairAttempts } : {}),
  };
}

/**
 * A glance at a PR whose head just moved: one read of the PR itself. The new head has no
 * results yet and its reviews and base did not change, so nothing else is read; the read also
 * starts GitHub's mergeability job, whose answer the head's CI completion then finds ("a
 * `null` mergeable means a background job was started to compute it").
 */
export async function glancePull(
  port: GitHubReads,
  repo: RepoName,
  number: number,
  opts: ReadOptions,
): Promise<PrObservation> {
  return pullOnly(await port.getPull(repo, number), opts);
}

/**
 * Reads one pull request fresh from GitHub (webhook payloads only say *that* something
 * changed): state, head, draft, mergeability, the head's checks, commit statuses and (for a
 * fork's head) runs waiting for approval, the checks its base requires (rulesets, branch
 * protection and `checks:` in .github/loopx.yml), whether the head skips CI (read only when a
 * required check has no result), and the standing review.
 */
export async function readPull(
  port: GitHubReads,
  repo: RepoName,
  number: number,
  opts: {
    mergeGate: boolean;
    mergeScopes?: readonly string[];
    checks: readonly string[];
    /** `repair.attempts` in loopx.yml (the kernel's default when absent). */
    repairAttempts?: number;
  },
  /** The PR as read a moment ago by the caller, who changed nothing the monitor reads since. */
  known?: PullSnapshot,
): Promise<PrObservation> {
  const pull = known ?? (await port.getPull(repo, number));
  const state = pull.merged ? "merged" : pull.state;
  if (state !== "open") return pullOnly(pull, opts);
  const [checks, statuses, waiting, reviews, baseRequired] = await Promise.all([
    port.listChecks(repo, pull.headSha),
    // External CI often reports commit statuses instead of check runs: both count.
    port.listStatuses(repo, pull.headSha),
    canAwaitApproval(repo, pull.headRepo) ? port.listWaitingRuns(repo, pull.headSha) : [],
    port.listReviews(repo, number),
    port.requiredChecks(repo, pull.baseRef),
  ]);
  const review = await standingChangeRequest(port, repo, reviews);
  // LoopX's own check runs say what LoopX decided, not what CI found: never evidence. They are
  // known by the App that wrote them, since CI running agent code can name a check anything.
  const bot = await port.botLogin();
  const ci = checks.filter((c) => !(c.app != null && `${c.app}[bot]` === bot));
  // A ruleset may require LoopX's own checks to bind the merge button; CI is not to wait on them.
  const required = [...new Set([...baseRequired, ...opts.checks])]
    .filter((name) => !isLoopxCheck(name))
    .slice(0, 100);
  // A skip marker only explains required checks that never reported: when each has a result
  // on this head, CI ran, and the head commit is not read.
  const reported = new Set([...ci, ...statuses].map((c) => c.name));
  const unexplained = required.some((name) => !reported.has(name));
  const skipCi = unexplained && skipsCi(await port.commitMessage(repo, pull.headSha));
  return {
    number,
    state,
    headSha: pull.headSha,
    draft: pull.draft,
    mergeable: pull.mergeable,
    mergeableState: pull.mergeableState,
    ...(pull.size !== null ? { size: pull.size } : {}),
    checks: {
      sha: pull.headSha,
      list: [...ci, ...statuses, ...waiting].slice(0, 100).map((c) => ({
        name: c.name.slice(0, 200),
        status: c.status,
        url: c.url,
        runId: c.runId ?? null,
        // What a failure's signature is read from (check, app, first failing test or error line).
        ...(c.appId != null ? { appId: c.appId } : {}),
        ...(c.output ? { output: c.output } : {}),
      })),
    },
    required,
    skipCi,
    changesRequested: review,
    threadsResolved: await threadsResolved(port, repo, number, pull.headSha, review),
    mergeGate: opts.mergeGate,
    mergeScopes: [...(opts.mergeScopes ?? [])],
    ...(opts.repairAttempts !== undefined ? { repairAttempts: opts.repairAttempts } : {}),
  };
}
