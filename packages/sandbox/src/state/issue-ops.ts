import { HttpError } from "../http-error.ts";
import { renderIssue } from "../render/issues.ts";
import type { RouteContext } from "../routes/context.ts";
import type { Issue, Label, Repo, User } from "./types.ts";

/** Issue mutations shared by the issues, pulls and sub-issues routes, each with its webhooks. */

export const BODY_LIMIT = 65_536;

export function checkBody(body: string | null | undefined, resource = "Issue"): void {
  if (body && body.length > BODY_LIMIT) {
    throw new HttpError(422, "Validation Failed", {
      errors: [
        {
          resource,
          code: "custom",
          field: "body",
          message: "body is too long (maximum is 65536 characters)",
        },
      ],
    });
  }
}

export function ensureLabel(ctx: RouteContext, repo: Repo, name: string): Label {
  const key = name.toLowerCase();
  let label = repo.labels.get(key);
  if (!label) {
    label = { id: ctx.store.id(), name, color: "ededed", description: null, isDefault: false };
    repo.labels.set(key, label);
  }
  return label;
}

function issueEvent(issue: Issue): string {
  return issue.isPull ? "pull_request" : "issues";
}

export function emitIssue(
  ctx: RouteContext,
  issue: Issue,
  action: string,
  sender: User,
  extra: Record<string, unknown> = {},
): void {
  const repo = ctx.store.repo(issue.repoId);
  if (issue.isPull) {
    // Pull requests announce their own events with the PR shape (see pulls).
    ctx.pullEvents?.(issue, action, sender, extra);
    return;
  }
  ctx.bus.emit(issueEvent(issue), repo, sender, {
    action,
    issue: renderIssue(ctx.render, issue, "webhook"),
    ...extra,
  });
}

/**
 * Replaces the assignee set, announcing each change as GitHub does: one `unassigned` per
 * login removed and one `assigned` per login added, each naming its `assignee`.
 */
export function setAssignees(
  ctx: RouteContext,
  issue: Issue,
  userIds: number[],
  sender: User,
): void {
  const wanted = userIds.filter((id, i, all) => all.indexOf(id) === i);
  const before = issue.assigneeIds;
  if (wanted.length === before.length && wanted.every((id) => before.includes(id))) return;
  const removed = before.filter((id) => !wanted.includes(id));
  const added = wanted.filter((id) => !before.includes(id));
  issue.updatedAt = ctx.clock.now();
  let current = [...before];
  for (const id of removed) {
    current = current.filter((c) => c !== id);
    issue.assigneeIds = current;
    emitIssue(ctx, issue, "unassigned", sender, {
      assignee: ctx.render.userById(id, "webhook"),
    });
  }
  for (const id of added) {
    current = [...current, id];
    issue.assigneeIds = current;
    emitIssue(ctx, issue, "assigned", sender, { assignee: ctx.render.userById(id, "webhook") });
  }
  issue.assigneeIds = wanted;
}

/** Replaces the label set, announcing each label added and removed. */
export function setLabels(ctx: RouteContext, issue: Issue, names: string[], sender: User): void {
  const repo = ctx.store.repo(issue.repoId);
  const wanted = names.map((n) => ensureLabel(ctx, repo, n));
  const before = new Set(issue.labels.map((l) => l.toLowerCase()));
  const after = new Set(wanted.map((l) => l.name.toLowerCase()));
  issue.labels = wanted.map((l) => l.name).filter((n, i, all) => all.indexOf(n) === i);
  issue.updatedAt = ctx.clock.now();
  for (const label of wanted) {
    if (!before.has(label.name.toLowerCase())) {
      before.add(label.name.toLowerCase());
      emitIssue(ctx, issue, "labeled", sender, { label: ctx.render.label(repo, label) });
    }
  }
  for (const name of before) {
    if (!after.has(name)) {
      const label = repo.labels.get(name);
      if (label)
        emitIssue(ctx, issue, "unlabeled", sender, { label: ctx.render.label(repo, label) });
    }
  }
}

export function closeIssue(
  ctx: RouteContext,
  issue: Issue,
  sender: User,
  reason: "completed" | "not_planned" | "duplicate" = "completed",
): void {
  if (issue.state === "closed") return;
  issue.state = "closed";
  issue.stateReason = reason;
  issue.closedAt = ctx.clock.now();
  issue.closedById = sender.id;
  issue.updatedAt = ctx.clock.now();
  emitIssue(ctx, issue, "closed", sender);
}

export function reopenIssue(ctx: RouteContext, issue: Issue, sender: User): void {
  if (issue.state === "open") return;
  issue.state = "open";
  issue.stateReason = "reopened";
  issue.closedAt = null;
  issue.closedById = null;
  issue.updatedAt = ctx.clock.now();
  emitIssue(ctx, issue, "reopened", sender);
}

export function newIssue(
  ctx: RouteContext,
  repo: Repo,
  fields: {
    title: string;
    body: string | null;
    userId: number;
    isPull: boolean;
    viaAppId: number | null;
  },
): Issue {
  const now = ctx.clock.now();
  const issue: Issue = {
    id: ctx.store.id(),
    repoId: repo.id,
    number: repo.nextNumber++,
    title: fields.title,
    body: fields.body,
    state: "open",
    stateReason: null,
    labels: [],
    userId: fields.userId,
    assigneeIds: [],
    locked: false,
    createdAt: now,
    updatedAt: now,
    closedAt: null,
    closedById: null,
    isPull: fields.isPull,
    parentId: null,
    subIssueIds: [],
    reactions: [],
    viaAppId: fields.viaAppId,
  };
  ctx.store.issues.set(issue.id, issue);
  return issue;
}
