/**
 * The GitHub port: the small set of idempotent verbs LoopX writes and reads GitHub through.
 * The app implements it over Octokit for one installation; tests and the demo run it against
 * the sandbox. Passed in, never imported as a global.
 */
export interface RepoName {
  owner: string;
  repo: string;
}

export interface IssueRef extends RepoName {
  number: number;
}

/** A person's effective permission on a repository, as the collaborators API reports it. */
export type Permission = "admin" | "maintain" | "write" | "triage" | "read" | "none";

export interface IssueSnapshot {
  id: number;
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  author: string;
  labels: string[];
}

export interface PullSnapshot {
  number: number;
  headSha: string;
  headRef: string;
  baseRef: string;
  state: "open" | "closed";
  merged: boolean;
  author: string;
  requestedReviewers: string[];
  /** `owner/name` of the head's repository; null when the fork was deleted. */
  headRepo: string | null;
  draft: boolean;
  /** GitHub computes it lazily after a push: null means "not known yet". */
  mergeable: boolean | null;
  mergeableState: string | null;
  mergeCommitSha: string | null;
  body: string;
  /** GitHub's counts for the whole PR (three-dot diff); null where a listing omits them. */
  size: { files: number; insertions: number; deletions: number } | null;
}

/** One file of a pull request's diff, as GitHub's "list pull requests files" gives it. */
export interface PullFile {
  filename: string;
  /** added, removed, modified, renamed, copied, changed or unchanged. */
  status: string;
  additions: number;
  deletions: number;
  /** The commit GitHub listed the file at (from its blob URL), when it says. */
  commit: string | null;
}

/**
 * One check on a commit, reduced to what the PR monitor decides on. Neutral and skipped are
 * kept apart from success; `action_required` is a workflow run waiting for a person, `runId`
 * the run to approve.
 */
export interface CheckSnapshot {
  name: string;
  status: "pending" | "success" | "failure" | "neutral" | "skipped" | "action_required";
  url: string | null;
  runId?: number;
  /** The slug of the App that wrote a check run; commit statuses have none. */
  app?: string | null;
  /** The id of the App that wrote a check run (what a failure's signature names). */
  appId?: number | null;
  /** What the check says about itself: a check run's output title, summary and text; a status's description. */
  output?: string;
}

/** One submitted review on a pull request. */
export interface ReviewSnapshot {
  id: number;
  author: string;
  state: "approved" | "changes_requested" | "commented" | "dismissed" | "pending";
  commitId: string;
  body: string;
  submittedAt: Date | null;
  url: string | null;
}

/** One review thread: whether it is resolved, and the review its first comment belongs to. */
export interface ReviewThreadSnapshot {
  resolved: boolean;
  reviewId: number | null;
}

export interface ReviewThreads {
  threads: ReviewThreadSnapshot[];
  /** False when the PR has more threads than one page: then not all of them are known. */
  complete: boolean;
}

export interface NewPull {
  title: string;
  head: string;
  base: string;
  body: string;
}

/** One job of a workflow run attempt, as the jobs API reports its time. */
export interface RunJob {
  name: string;
  conclusion: string | null;
  startedAt: Date | null;
  completedAt: Date | null;
}

/**
 * GitHub's refusal of a PR whose head is already in its base (422 "No commits between …"):
 * not a failed write but a fact about the branch — its work has landed.
 */
export interface NothingToPull {
  nothingToPull: true;
  /** GitHub's words, e.g. "No commits between main and loopx/12-T1". */
  message: string;
}

/** GitHub's 422 to a create when the head already has an open PR into that base. */
export interface AlreadyOpen {
  alreadyOpen: true;
  /** GitHub's words, e.g. "A pull request already exists for acme:loopx/12-T1." */
  message: string;
}

export interface CommentRef {
  id: number;
  /** Whether this call created it (false: it was found, nothing was written). */
  created: boolean;
}

/**
 * Every verb that only reads. Handlers and intake planners get this alone (see
 * `readsOnly`): what they decide reaches GitHub as outbox rows, written after the commit.
 */
export interface GitHubReads {
  /** The app's own login (`<slug>[bot]`): own comments are found by author and key. */
  botLogin(): Promise<string>;
  permission(repo: RepoName, login: string): Promise<Permission>;
  getIssue(issue: IssueRef): Promise<IssueSnapshot>;
  /**
   * The sub-issues of `parent` (id, number, body): the outbox looks for the one it created
   * (by the key hidden in its body) before creating another after a crash.
   */
  listSubIssues(parent: IssueRef): Promise<{ id: number; number: number; body: string }[]>;
  defaultBranch(repo: RepoName): Promise<string>;
  getPull(repo: RepoName, number: number): Promise<PullSnapshot>;
  /**
   * Pull requests whose head is `branch` in this very repository (forks excluded), in every
   * state (open, closed, merged), newest first: what GitHub holds for the branch.
   */
  findPullsByHead(repo: RepoName, branch: string): Promise<PullSnapshot[]>;
  /** Check runs on a commit (the latest run per name). */
  listChecks(repo: RepoName, ref: string): Promise<CheckSnapshot[]>;
  /** Commit statuses on a commit (the latest per context), as checks named by their context. */
  listStatuses(repo: RepoName, ref: string): Promise<CheckSnapshot[]>;
  /**
   * The checks `branch` requires: the required status checks of its active rulesets (`GET
   * /repos/{o}/{r}/rules/branches/{b}`) and of its classic branch protection, together.
   */
  requiredChecks(repo: RepoName, branch: string): Promise<string[]>;
  /** A commit's message (whether it asks GitHub to skip CI). */
  commitMessage(repo: RepoName, sha: string): Promise<string>;
  /** Workflow runs on a head that wait for a person's approval (`action_required`). */
  listWaitingRuns(repo: RepoName, headSha: string): Promise<CheckSnapshot[]>;
  /**
   * The first `limit` (≤ 100) files a PR changes, as GitHub lists them (one page), and
   * whether that was all of them.
   */
  listPullFiles(
    repo: RepoName,
    number: number,
    limit: number,
  ): Promise<{ files: PullFile[]; complete: boolean }>;
  /** The PR's review threads (GraphQL: REST has no "resolved"); see ReviewThreads. */
  listReviewThreads(repo: RepoName, number: number): Promise<ReviewThreads>;
  listReviews(repo: RepoName, number: number): Promise<ReviewSnapshot[]>;
  /** `.github/loopx.yml` parsed from YAML, or null when the file does not exist. */
  readConfig(repo: RepoName): Promise<unknown>;
  /** The jobs of a workflow run's latest attempt: what its runner minutes are billed from. */
  listRunJobs(repo: RepoName, runId: number): Promise<RunJob[]>;
}

/** A completed check run as LoopX writes it. */
export interface CheckRunWrite {
  name: string;
  conclusion: "success" | "failure" | "neutral";
  title: string;
  summary: string;
  detailsUrl: string;
}

/** The verbs that change GitHub: only the outbox worker holds them. */
export interface GitHubWrites {
  /** A completed check run on `headSha`; needs `checks: write` (without it GitHub answers 403). */
  createCheckRun(repo: RepoName, headSha: string, run: CheckRunWrite): Promise<{ id: number }>;
  /** Rewrites a check run this App created (GitHub refuses another App's, 403). */
  updateCheckRun(repo: RepoName, id: number, run: CheckRunWrite): Promise<void>;
  setIssueBody(issue: IssueRef, body: string): Promise<void>;
  setIssueTitle(issue: IssueRef, title: string): Promise<void>;
  /**
   * Creates a comment carrying `key` unless the app already wrote one with that key. With
   * `unwritten`, the caller knows no attempt at it ever reached GitHub (the first try of its
   * write), so it is posted without listing the issue's comments first.
   */
  ensureComment(
    issue: IssueRef,
    key: string,
    body: string,
    opts?: { unwritten?: boolean },
  ): Promise<CommentRef>;
  /**
   * The sticky comment: updated in place by `knownId` (an id this app got back when it created
   * or found its own comment, so no read comes first), else — no id, or that comment is gone —
   * found by key among the app's comments, else created. Returns its id for the next time.
   */
  upsertComment(
    issue: IssueRef,
    key: string,
    body: string,
    knownId: number | null,
  ): Promise<CommentRef>;
  react(repo: RepoName, commentId: number, content: "eyes" | "+1" | "confused"): Promise<void>;
  /** Creates an issue and links it as a sub-issue of `parent` (by numeric id, as the API wants). */
  createSubIssue(
    parent: IssueRef,
    title: string,
    body: string,
  ): Promise<{ id: number; number: number }>;
  closeIssue(issue: IssueRef, reason: "completed" | "not_planned"): Promise<void>;
  /**
   * Dispatches a workflow; `runId` is the run GitHub started, when it tells (null: unknown).
   * An input `nonce` names the run (its `run-name`), so it can be found where GitHub does not
   * answer with the run's id.
   */
  dispatchWorkflow(
    repo: RepoName,
    workflowFile: string,
    ref: string,
    inputs: Record<string, string>,
  ): Promise<{ runId: number | null }>;
  /**
   * Requests reviews; GitHub refuses some logins (not collaborators, the PR's author), or
   * accepts and does not list them: those come back in `refused`, so the caller can fall back
   * to one @mention comment.
   */
  requestReviewers(
    repo: RepoName,
    number: number,
    logins: string[],
  ): Promise<{ requested: string[]; refused: string[] }>;
  createPull(repo: RepoName, pull: NewPull): Promise<PullSnapshot | NothingToPull | AlreadyOpen>;
  updatePull(
    repo: RepoName,
    number: number,
    /** `state: "open"` reopens a closed PR (GitHub refuses a merged one, 422). */
    patch: { title?: string; body?: string; state?: "open" },
  ): Promise<void>;
  /** Approves a workflow run waiting for approval (GitHub allows it for fork pull requests). */
  approveRun(repo: RepoName, runId: number): Promise<void>;
  /**
   * Cancels a workflow run (`force`: force-cancel, which skips `always()` steps); `completed`
   * when GitHub answers 409 because the run already finished.
   */
  cancelRun(repo: RepoName, runId: number, force: boolean): Promise<"cancelling" | "completed">;
}

export type GitHubPort = GitHubReads & GitHubWrites;

/**
 * The port with its writing verbs gone, at run time as in the types: an object holding only
 * the read methods (the type makes the list exhaustive), so no cast can reach a write.
 */
export function readsOnly(p: GitHubReads): GitHubReads {
  return Object.freeze({
    botLogin: () => p.botLogin(),
    permission: (repo, login) => p.permission(repo, login),
    getIssue: (issue) => p.getIssue(issue),
    listSubIssues: (parent) => p.listSubIssues(parent),
    defaultBranch: (repo) => p.defaultBranch(repo),
    getPull: (repo, number) => p.getPull(repo, number),
    findPullsByHead: (repo, branch) => p.findPullsByHead(repo, branch),
    listChecks: (repo, ref) => p.listChecks(repo, ref),
    listStatuses: (repo, ref) => p.listStatuses(repo, ref),
    requiredChecks: (repo, branch) => p.requiredChecks(repo, branch),
    commitMessage: (repo, sha) => p.commitMessage(repo, sha),
    listWaitingRuns: (repo, headSha) => p.listWaitingRuns(repo, headSha),
    listPullFiles: (repo, number, limit) => p.listPullFiles(repo, number, limit),
    listReviewThreads: (repo, number) => p.listReviewThreads(repo, number),
    listReviews: (repo, number) => p.listReviews(repo, number),
    readConfig: (repo) => p.readConfig(repo),
    listRunJobs: (repo, runId) => p.listRunJobs(repo, runId),
  } satisfies GitHubReads);
}

/** A failed GitHub call, classified for the outbox: retry later, or give up (dead letter). */
export class GitHubError extends Error {
  override name = "GitHubError";
  constructor(
    message: string,
    readonly status: number,
    /** Seconds GitHub asked us to wait (retry-after / rate-limit reset), if it said. */
    readonly retryAfterSeconds: number | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** 403/404/410 without a retry hint will not get better by waiting. */
  get permanent(): boolean {
    return (
      (this.status === 403 || this.status === 404 || this.status === 410 || this.status === 422) &&
      this.retryAfterSeconds === null
    );
  }
}

/** What a tick's push token may do; LoopX never asks for `workflows`. */
export interface RepoTokenPermissions {
  contents?: "read" | "write";
  pull_requests?: "read" | "write";
}

export interface RepoToken {
  token: string;
  expiresAt: Date;
}

/**
 * Verbs that need the App's own identity (its JWT), not one installation's token: minting
 * an installation token narrowed to one repository and a few permissions, and revoking it.
 */
export interface GitHubAppPort {
  mintRepoToken(
    installationId: number,
    repositoryId: number,
    permissions: RepoTokenPermissions,
  ): Promise<RepoToken>;
  /** Revokes an installation token (`DELETE /installation/token`, authenticated by itself). */
  revokeToken(token: string): Promise<void>;
}
