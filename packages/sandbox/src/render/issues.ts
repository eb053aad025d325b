import type { Store } from "../state/store.ts";
import type { Comment, Issue, Reaction, Repo } from "../state/types.ts";
import { type Flavor, iso, isoOrNull, type Json, nodeId, type Renderer } from "./core.ts";

export function issueUrl(r: Renderer, repo: Repo, number: number): string {
  return `${r.repoUrl(repo)}/issues/${number}`;
}

export function subIssuesSummary(store: Store, issue: Issue): Json {
  const subs = issue.subIssueIds.map((id) => store.issues.get(id)).filter((i) => i !== undefined);
  const completed = subs.filter(
    (i) => i.state === "closed" && i.stateReason === "completed",
  ).length;
  return {
    total: subs.length,
    completed,
    percent_completed: subs.length === 0 ? 0 : Math.floor((completed * 100) / subs.length),
  };
}

export function renderIssue(r: Renderer, issue: Issue, flavor: Flavor = "rest"): Json {
  const store = r.store;
  const repo = store.repo(issue.repoId);
  const url = issueUrl(r, repo, issue.number);
  const html = `${r.repoHtml(repo)}/${issue.isPull ? "pull" : "issues"}/${issue.number}`;
  const assignees = issue.assigneeIds.map((id) => r.userById(id, flavor));
  const labels = issue.labels
    .map((name) => repo.labels.get(name.toLowerCase()))
    .filter((l) => l !== undefined)
    .map((l) => r.label(repo, l));
  const app = issue.viaAppId === null ? undefined : store.apps.get(issue.viaAppId);
  const out: Json = {
    url,
    repository_url: r.repoUrl(repo),
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: html,
    id: issue.id,
    node_id: nodeId(issue.isPull ? "PR" : "I", issue.id),
    number: issue.number,
    title: issue.title,
    user: r.userById(issue.userId, flavor),
    labels,
    state: issue.state,
    locked: issue.locked,
    assignee: assignees[0] ?? null,
    assignees,
    milestone: null,
    comments: store.commentsOf(repo.id, issue.number).length,
    created_at: iso(issue.createdAt),
    updated_at: iso(issue.updatedAt),
    closed_at: isoOrNull(issue.closedAt),
    author_association: r.authorAssociation(repo, issue.userId),
    active_lock_reason: null,
    body: issue.body,
    reactions: r.reactions(url, issue.reactions),
    timeline_url: `${url}/timeline`,
    performed_via_github_app: app ? r.app(app, flavor) : null,
    state_reason: issue.stateReason,
  };
  out.draft = false;
  if (issue.isPull) {
    const pull = store.pulls.get(`${repo.id}#${issue.number}`);
    const pullUrl = `${r.repoUrl(repo)}/pulls/${issue.number}`;
    out.draft = pull?.draft ?? false;
    out.pull_request = {
      url: pullUrl,
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      merged_at: isoOrNull(pull?.mergedAt ?? null),
    };
  }
  if (flavor === "rest") {
    out.closed_by = issue.closedById === null ? null : r.userById(issue.closedById);
    out.sub_issues_summary = subIssuesSummary(store, issue);
    if (issue.parentId !== null) {
      const parent = store.issues.get(issue.parentId);
      if (parent) out.parent_issue_url = issueUrl(r, store.repo(parent.repoId), parent.number);
    }
  }
  return out;
}

export function renderComment(r: Renderer, comment: Comment, flavor: Flavor = "rest"): Json {
  const store = r.store;
  const repo = store.repo(comment.repoId);
  const url = `${r.repoUrl(repo)}/issues/comments/${comment.id}`;
  const issue = store.issueByNumber(repo.id, comment.issueNumber);
  const app = comment.viaAppId === null ? undefined : store.apps.get(comment.viaAppId);
  return {
    url,
    html_url: `${r.repoHtml(repo)}/${issue.isPull ? "pull" : "issues"}/${comment.issueNumber}#issuecomment-${comment.id}`,
    issue_url: issueUrl(r, repo, comment.issueNumber),
    id: comment.id,
    node_id: nodeId("IC", comment.id),
    user: r.userById(comment.userId, flavor),
    created_at: iso(comment.createdAt),
    updated_at: iso(comment.updatedAt),
    author_association: r.authorAssociation(repo, comment.userId),
    body: comment.body,
    reactions: r.reactions(url, comment.reactions),
    performed_via_github_app: app ? r.app(app, flavor) : null,
  };
}

export function renderReaction(r: Renderer, reaction: Reaction): Json {
  return {
    id: reaction.id,
    node_id: nodeId("REA", reaction.id),
    user: r.userById(reaction.userId),
    content: reaction.content,
    created_at: iso(reaction.createdAt),
  };
}
