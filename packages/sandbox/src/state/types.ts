/** The sandbox's in-memory model of GitHub. Ids are GitHub-like positive integers. */

export type UserType = "User" | "Bot" | "Organization";
export type Role = "read" | "triage" | "write" | "maintain" | "admin";
export type PermissionLevel = "read" | "write" | "admin";

export interface User {
  id: number;
  login: string;
  type: UserType;
  name: string | null;
}

export interface AppRecord {
  id: number;
  slug: string;
  name: string;
  clientId: string;
  ownerId: number;
  publicKeyPem: string;
  /** Only set when the sandbox generated the key pair. */
  privateKeyPem: string | null;
  webhookSecret: string;
  permissions: Record<string, PermissionLevel>;
  events: string[];
  botUserId: number;
  createdAt: number;
  /** From a manifest: its description and homepage (`url`). */
  description?: string;
  externalUrl?: string;
}

export interface Installation {
  id: number;
  appId: number;
  accountId: number;
  /** Repository ids the installation may reach. */
  repositoryIds: number[];
  permissions: Record<string, PermissionLevel>;
  events: string[];
  createdAt: number;
}

export interface Token {
  token: string;
  /** `job`: a workflow job's GITHUB_TOKEN (its events start no workflows or CI). */
  kind: "installation" | "user" | "job";
  installationId: number | null;
  /** For user tokens: the acting user. For installation tokens: the app's bot user. */
  userId: number;
  expiresAt: number;
  permissions: Record<string, PermissionLevel>;
  repositoryIds: number[] | null;
}

export interface Label {
  id: number;
  name: string;
  color: string;
  description: string | null;
  isDefault: boolean;
}

export interface Repo {
  id: number;
  ownerId: number;
  name: string;
  description: string | null;
  private: boolean;
  defaultBranch: string;
  createdAt: number;
  updatedAt: number;
  pushedAt: number;
  nextNumber: number;
  collaborators: Map<number, Role>;
  labels: Map<string, Label>;
  /** branch → head sha: a mirror of the bare repository's refs, refreshed after every write. */
  branches: Map<string, string>;
  /** The bare git repository on disk holding the code. */
  gitDir: string;
  /** The repository this one is a fork of (`POST /repos/{o}/{r}/forks`); null for a source. */
  forkOfId: number | null;
  /** Branch protection by branch name (`PUT …/branches/{branch}/protection`). */
  protection: Map<string, BranchProtection>;
  /** Repository rulesets (`POST /repos/{o}/{r}/rulesets`), in creation order. */
  rulesets: Ruleset[];
}

/** A branch ruleset with the rule the sandbox models: required status checks. */
export interface Ruleset {
  id: number;
  name: string;
  /** Only `active` rulesets apply; `evaluate` and `disabled` ones are never returned as rules. */
  enforcement: "active" | "evaluate" | "disabled";
  /** `ref_name` patterns: `refs/heads/<glob>`, `~DEFAULT_BRANCH`, `~ALL`. */
  include: string[];
  exclude: string[];
  requiredChecks: { context: string; integrationId: number | null }[];
  strict: boolean;
  createdAt: number;
  updatedAt: number;
}

/** The part of branch protection the sandbox enforces: required status checks. */
export interface BranchProtection {
  /** Require branches to be up to date before merging: a PR behind its base is `behind`. */
  strict: boolean;
  contexts: string[];
}

export type CommitStatusState = "error" | "failure" | "pending" | "success";

/** A commit status (`POST /repos/{o}/{r}/statuses/{sha}`): the pre-checks CI signal. */
export interface CommitStatus {
  id: number;
  repoId: number;
  sha: string;
  state: CommitStatusState;
  context: string;
  description: string | null;
  targetUrl: string | null;
  creatorId: number;
  createdAt: number;
  updatedAt: number;
}

/** A review comment that starts a thread (replies are not modelled); GraphQL resolves threads. */
export interface ReviewThread {
  id: number;
  repoId: number;
  pullNumber: number;
  reviewId: number;
  /** The thread's first comment. */
  commentId: number;
  userId: number;
  body: string;
  path: string;
  line: number;
  commitId: string;
  createdAt: number;
  resolvedById: number | null;
}

export interface Reaction {
  id: number;
  userId: number;
  content: ReactionContent;
  createdAt: number;
}

export const REACTIONS = [
  "+1",
  "-1",
  "laugh",
  "confused",
  "heart",
  "hooray",
  "rocket",
  "eyes",
] as const;
export type ReactionContent = (typeof REACTIONS)[number];

export interface Issue {
  id: number;
  repoId: number;
  number: number;
  title: string;
  body: string | null;
  state: "open" | "closed";
  stateReason: "completed" | "not_planned" | "reopened" | "duplicate" | null;
  labels: string[];
  userId: number;
  assigneeIds: number[];
  locked: boolean;
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
  closedById: number | null;
  /** Set for pull requests (a PR is an issue too). */
  isPull: boolean;
  parentId: number | null;
  subIssueIds: number[];
  reactions: Reaction[];
  viaAppId: number | null;
}

export interface Comment {
  id: number;
  repoId: number;
  issueNumber: number;
  body: string;
  userId: number;
  createdAt: number;
  updatedAt: number;
  reactions: Reaction[];
  viaAppId: number | null;
}

export interface Pull {
  repoId: number;
  number: number;
  /** The repository holding the head branch: a fork's id for a PR from a fork. */
  headRepoId: number;
  headRef: string;
  headSha: string;
  baseRef: string;
  baseSha: string;
  draft: boolean;
  merged: boolean;
  mergedAt: number | null;
  mergedById: number | null;
  mergeCommitSha: string | null;
  maintainerCanModify: boolean;
  requestedReviewerIds: number[];
  /** null until the sandbox "computes" it on the first read after a change. */
  mergeable: boolean | null;
  /** Forces a conflict whatever git says (`sandbox.setConflict`); real conflicts come from git. */
  conflicting: boolean;
  closesIssueNumbers: number[];
}

export type ReviewState = "PENDING" | "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "DISMISSED";

export interface Review {
  id: number;
  repoId: number;
  pullNumber: number;
  userId: number;
  body: string;
  state: ReviewState;
  commitId: string;
  submittedAt: number | null;
}

export interface CheckSuite {
  id: number;
  repoId: number;
  appId: number;
  headSha: string;
  headBranch: string | null;
  status: "queued" | "in_progress" | "completed";
  conclusion: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface CheckRun {
  id: number;
  suiteId: number;
  repoId: number;
  appId: number;
  name: string;
  headSha: string;
  status: "queued" | "in_progress" | "completed" | "waiting" | "requested" | "pending";
  conclusion: string | null;
  startedAt: number;
  completedAt: number | null;
  externalId: string | null;
  detailsUrl: string | null;
  output: { title: string | null; summary: string | null; text: string | null };
}

export interface Workflow {
  id: number;
  repoId: number;
  path: string;
  name: string;
  createdAt: number;
}

export interface WorkflowRun {
  id: number;
  repoId: number;
  workflowId: number;
  runNumber: number;
  runAttempt: number;
  event: string;
  status: "queued" | "in_progress" | "completed" | "pending" | "waiting";
  conclusion: string | null;
  headBranch: string;
  headSha: string;
  actorId: number;
  triggeringActorId: number;
  inputs: Record<string, string>;
  checkSuiteId: number;
  createdAt: number;
  updatedAt: number;
  runStartedAt: number;
  /** The evaluated `run-name`, shown as `display_title`; the workflow's name without one. */
  displayTitle?: string;
  /** The evaluated `concurrency.group`, if the workflow has one. */
  concurrencyGroup?: string | null;
  /** A `pull_request` run for a PR from a fork: no secrets, a read-only GITHUB_TOKEN. */
  fromFork?: boolean;
}

export interface WorkflowStep {
  name: string;
  number: number;
  status: "queued" | "in_progress" | "completed";
  conclusion: "success" | "failure" | "cancelled" | "skipped" | null;
  startedAt: number | null;
  completedAt: number | null;
}

/** A job of a run the sandbox's runner executed (or skipped). */
export interface WorkflowJob {
  id: number;
  runId: number;
  repoId: number;
  /** The job's key under `jobs:` in the workflow file. */
  key: string;
  name: string;
  status: "queued" | "in_progress" | "completed" | "waiting";
  conclusion: "success" | "failure" | "cancelled" | "skipped" | null;
  createdAt: number;
  startedAt: number;
  completedAt: number | null;
  steps: WorkflowStep[];
  outputs: Record<string, string>;
  /** What the steps wrote to GITHUB_STEP_SUMMARY, concatenated. */
  summary: string;
  /** stdout and stderr of every step, in order. */
  log: string;
}
