import type { Pull, Repo, Review, ReviewThread } from "../state/types.ts";
import { type Flavor, iso, isoOrNull, type Json, nodeId, type Renderer } from "./core.ts";
import { renderIssue } from "./issues.ts";

const link = (href: string) => ({ href });

/**
 * GitHub's `mergeable_state`: `dirty` (conflicts), `draft`, `behind` (branch protection
 * requires an up-to-date branch and the head lacks the base's tip), else `clean`.
 */
function stateOfMerge(r: Renderer, repo: Repo, pull: Pull): string {
  if (pull.merged || pull.mergeable === null) return "unknown";
  if (pull.mergeable === false) return "dirty";
  if (pull.draft) return "draft";
  const base = repo.branches.get(pull.baseRef);
  const strict = repo.protection.get(pull.baseRef)?.strict === true;
  if (strict && base && !r.store.git(repo).isAncestor(base, pull.headSha)) return "behind";
  return "clean";
}

export function renderPull(r: Renderer, pull: Pull, flavor: Flavor = "rest"): Json {
  const store = r.store;
  const repo = store.repo(pull.repoId);
  const issue = store.issueByNumber(repo.id, pull.number);
  const base = renderIssue(r, issue, flavor);
  const url = `${r.repoUrl(repo)}/pulls/${pull.number}`;
  const html = `${r.repoHtml(repo)}/pull/${pull.number}`;
  const owner = store.user(repo.ownerId);
  const ownerJson = r.user(owner, flavor);
  const repoJson = r.repo(repo, flavor);
  // A PR from a fork: its head is that fork's branch.
  const headRepo = store.repo(pull.headRepoId);
  const headOwner = store.user(headRepo.ownerId);
  const reviewComments = 0;
  const stats = store.git(repo).diffStats(pull.baseSha, pull.headSha);
  const mergeableState = stateOfMerge(r, repo, pull);
  return {
    url,
    id: issue.id,
    node_id: nodeId("PR", issue.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: `${r.repoUrl(repo)}/issues/${pull.number}`,
    number: pull.number,
    state: issue.state,
    locked: issue.locked,
    title: issue.title,
    user: base.user,
    body: issue.body,
    created_at: iso(issue.createdAt),
    updated_at: iso(issue.updatedAt),
    closed_at: isoOrNull(issue.closedAt),
    merged_at: isoOrNull(pull.mergedAt),
    merge_commit_sha: pull.mergeCommitSha,
    assignee: base.assignee,
    assignees: base.assignees,
    requested_reviewers: pull.requestedReviewerIds.map((id) => r.userById(id, flavor)),
    requested_teams: [],
    labels: base.labels,
    milestone: null,
    draft: pull.draft,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${r.repoUrl(repo)}/pulls/comments{/number}`,
    comments_url: `${r.repoUrl(repo)}/issues/${pull.number}/comments`,
    statuses_url: `${r.repoUrl(repo)}/statuses/${pull.headSha}`,
    head: {
      label: `${headOwner.login}:${pull.headRef}`,
      ref: pull.headRef,
      sha: pull.headSha,
      user: r.user(headOwner, flavor),
      repo: headRepo.id === repo.id ? repoJson : r.repo(headRepo, flavor),
    },
    base: {
      label: `${owner.login}:${pull.baseRef}`,
      ref: pull.baseRef,
      sha: pull.baseSha,
      user: ownerJson,
      repo: repoJson,
    },
    _links: {
      self: link(url),
      html: link(html),
      issue: link(`${r.repoUrl(repo)}/issues/${pull.number}`),
      comments: link(`${r.repoUrl(repo)}/issues/${pull.number}/comments`),
      review_comments: link(`${url}/comments`),
      review_comment: link(`${r.repoUrl(repo)}/pulls/comments{/number}`),
      commits: link(`${url}/commits`),
      statuses: link(`${r.repoUrl(repo)}/statuses/${pull.headSha}`),
    },
    author_association: base.author_association,
    auto_merge: null,
    active_lock_reason: null,
    merged: pull.merged,
    mergeable: pull.mergeable,
    rebaseable: pull.mergeable,
    mergeable_state: mergeableState,
    merged_by: pull.mergedById === null ? null : r.userById(pull.mergedById, flavor),
    comments: base.comments,
    review_comments: reviewComments,
    maintainer_can_modify: pull.maintainerCanModify,
    commits: stats.commits,
    additions: stats.additions,
    deletions: stats.deletions,
    changed_files: stats.files,
  };
}

const SIMPLE_ONLY_DROPS = [
  "merged",
  "mergeable",
  "rebaseable",
  "mergeable_state",
  "merged_by",
  "comments",
  "review_comments",
  "maintainer_can_modify",
  "commits",
  "additions",
  "deletions",
  "changed_files",
];

/** The pull-request-simple shape (lists, review payloads). */
export function renderSimplePull(r: Renderer, pull: Pull, flavor: Flavor = "rest"): Json {
  const full = renderPull(r, pull, flavor);
  for (const key of SIMPLE_ONLY_DROPS) delete full[key];
  return full;
}

export function renderReview(r: Renderer, review: Review, flavor: Flavor = "rest"): Json {
  const repo = r.store.repo(review.repoId);
  const pullUrl = `${r.repoUrl(repo)}/pulls/${review.pullNumber}`;
  const html = `${r.repoHtml(repo)}/pull/${review.pullNumber}#pullrequestreview-${review.id}`;
  const out: Json = {
    id: review.id,
    node_id: nodeId("PRR", review.id),
    user: r.userById(review.userId, flavor),
    body: review.body,
    commit_id: review.commitId,
    submitted_at: isoOrNull(review.submittedAt),
    state: flavor === "webhook" ? review.state.toLowerCase() : review.state,
    html_url: html,
    pull_request_url: pullUrl,
    author_association: r.authorAssociation(repo, review.userId),
    _links: { html: link(html), pull_request: link(pullUrl) },
  };
  if (flavor === "rest" && review.submittedAt === null) delete out.submitted_at;
  return out;
}

/** A thread's first comment, as `pull_request_review_comment` and thread events carry it. */
export function renderReviewComment(r: Renderer, thread: ReviewThread, flavor: Flavor): Json {
  const repo = r.store.repo(thread.repoId);
  const url = `${r.repoUrl(repo)}/pulls/comments/${thread.commentId}`;
  const pullUrl = `${r.repoUrl(repo)}/pulls/${thread.pullNumber}`;
  const html = `${r.repoHtml(repo)}/pull/${thread.pullNumber}#discussion_r${thread.commentId}`;
  return {
    url,
    pull_request_review_id: thread.reviewId,
    id: thread.commentId,
    node_id: nodeId("PRRC", thread.commentId),
    diff_hunk: `@@ -0,0 +1,${thread.line} @@`,
    path: thread.path,
    position: thread.line,
    original_position: thread.line,
    commit_id: thread.commitId,
    original_commit_id: thread.commitId,
    user: r.userById(thread.userId, flavor),
    body: thread.body,
    created_at: iso(thread.createdAt),
    updated_at: iso(thread.createdAt),
    html_url: html,
    pull_request_url: pullUrl,
    author_association: r.authorAssociation(repo, thread.userId),
    _links: { self: link(url), html: link(html), pull_request: link(pullUrl) },
    reactions: r.reactions(url, []),
    start_line: null,
    original_start_line: null,
    start_side: null,
    line: thread.line,
    original_line: thread.line,
    side: "RIGHT",
    subject_type: "line",
  };
}
