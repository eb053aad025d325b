import { z } from "zod";
import { actor, requireRepoAccess, viaApp } from "../auth.ts";
import { HttpError } from "../http-error.ts";
import { renderIssue } from "../render/issues.ts";
import type { Route } from "../router.ts";
import {
  checkBody,
  closeIssue,
  emitIssue,
  newIssue,
  reopenIssue,
  setAssignees,
  setLabels,
} from "../state/issue-ops.ts";
import { issueOf, ok, okPage, parseBody, type RouteContext, repoOf } from "./context.ts";

const labelName = z.union([z.string(), z.object({ name: z.string() }).transform((l) => l.name)]);

const createIssue = z.object({
  title: z.union([z.string().min(1), z.number().transform(String)]),
  body: z.string().nullable().optional(),
  labels: z.array(labelName).optional(),
  assignees: z.array(z.string()).optional(),
});

const updateIssue = z.object({
  title: z.union([z.string(), z.number().transform(String)]).optional(),
  body: z.string().nullable().optional(),
  state: z.enum(["open", "closed"]).optional(),
  state_reason: z.enum(["completed", "not_planned", "duplicate", "reopened"]).nullable().optional(),
  labels: z.array(labelName).optional(),
  assignees: z.array(z.string()).optional(),
});

const addLabels = z.union([
  z.object({ labels: z.array(labelName).min(1) }),
  z.array(labelName).transform((labels) => ({ labels })),
]);

export function issueRoutes(ctx: RouteContext): Route[] {
  const { store, render, clock } = ctx;
  const userIds = (logins: string[]) =>
    logins.map((login) => {
      const user = store.userByLogin(login);
      if (!user)
        throw new HttpError(422, "Validation Failed", {
          errors: [{ resource: "Issue", field: "assignees", code: "invalid", value: login }],
        });
      return user.id;
    });
  return [
    {
      method: "POST",
      template: "/repos/{owner}/{repo}/issues",
      operationId: "issues/create",
      auth: "token",
      contentCreating: true,
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "issues", "write", "read");
        const body = parseBody(createIssue, req.body);
        checkBody(body.body);
        const sender = actor(req.principal);
        const issue = newIssue(ctx, repo, {
          title: body.title,
          body: body.body ?? null,
          userId: sender.id,
          isPull: false,
          viaAppId: viaApp(req.principal),
        });
        if (body.assignees) issue.assigneeIds = userIds(body.assignees);
        emitIssue(ctx, issue, "opened", sender);
        if (body.labels && body.labels.length > 0) setLabels(ctx, issue, body.labels, sender);
        return ok(renderIssue(render, issue), 201, {
          location: `${render.repoUrl(repo)}/issues/${issue.number}`,
        });
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/issues/{issue_number}",
      operationId: "issues/get",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "issues", "read");
        return ok(renderIssue(render, issueOf(ctx, req, repo)));
      },
    },
    {
      method: "PATCH",
      template: "/repos/{owner}/{repo}/issues/{issue_number}",
      operationId: "issues/update",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        const issue = issueOf(ctx, req, repo);
        const sender = actor(req.principal);
        const own = req.principal.kind === "user" && issue.userId === sender.id;
        requireRepoAccess(req.principal, store, repo, "issues", "write", own ? "read" : "triage");
        const body = parseBody(updateIssue, req.body);
        checkBody(body.body);
        // No compare-and-swap: whoever writes last wins, as on GitHub.
        const changes: Record<string, { from: string }> = {};
        if (body.title !== undefined && body.title !== issue.title) {
          changes.title = { from: issue.title };
          issue.title = body.title;
        }
        if (body.body !== undefined && body.body !== issue.body) {
          changes.body = { from: issue.body ?? "" };
          issue.body = body.body;
        }
        const assignees = body.assignees ? userIds(body.assignees) : null;
        issue.updatedAt = clock.now();
        if (Object.keys(changes).length > 0) emitIssue(ctx, issue, "edited", sender, { changes });
        if (body.labels) setLabels(ctx, issue, body.labels, sender);
        if (assignees) setAssignees(ctx, issue, assignees, sender);
        if (body.state === "closed") {
          const reason =
            body.state_reason === "not_planned" || body.state_reason === "duplicate"
              ? body.state_reason
              : "completed";
          closeIssue(ctx, issue, sender, reason);
        } else if (body.state === "open") {
          reopenIssue(ctx, issue, sender);
        } else if (
          body.state_reason &&
          issue.state === "closed" &&
          body.state_reason !== "reopened"
        ) {
          issue.stateReason = body.state_reason;
        }
        return ok(renderIssue(render, issue));
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/issues",
      operationId: "issues/list-for-repo",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "issues", "read");
        const state = req.query.get("state") ?? "open";
        const labels = (req.query.get("labels") ?? "")
          .split(",")
          .map((l) => l.trim().toLowerCase())
          .filter(Boolean);
        const since = req.query.get("since");
        const creator = req.query.get("creator")?.toLowerCase();
        const direction = req.query.get("direction") ?? "desc";
        const sort = req.query.get("sort") ?? "created";
        const items = store
          .issuesOf(repo.id)
          .filter((i) => state === "all" || i.state === state)
          .filter((i) => labels.every((l) => i.labels.some((x) => x.toLowerCase() === l)))
          .filter((i) => !since || i.updatedAt >= Date.parse(since))
          .filter((i) => !creator || store.user(i.userId).login.toLowerCase() === creator)
          .sort((a, b) => {
            const key = sort === "updated" ? "updatedAt" : "createdAt";
            const d = a[key] - b[key] || a.number - b.number;
            return direction === "asc" ? d : -d;
          });
        return okPage(items, req, `${render.repoUrl(repo)}/issues`, (i) => renderIssue(render, i));
      },
    },
    {
      method: "POST",
      template: "/repos/{owner}/{repo}/issues/{issue_number}/labels",
      operationId: "issues/add-labels",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "issues", "write", "triage");
        const issue = issueOf(ctx, req, repo);
        const { labels } = parseBody(addLabels, req.body);
        setLabels(ctx, issue, [...issue.labels, ...labels], actor(req.principal));
        return ok(issueLabels(ctx, repo.id, issue.labels));
      },
    },
    {
      method: "DELETE",
      template: "/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}",
      operationId: "issues/remove-label",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "issues", "write", "triage");
        const issue = issueOf(ctx, req, repo);
        const name = (req.params.name ?? "").toLowerCase();
        if (!issue.labels.some((l) => l.toLowerCase() === name)) {
          throw new HttpError(404, "Label does not exist");
        }
        setLabels(
          ctx,
          issue,
          issue.labels.filter((l) => l.toLowerCase() !== name),
          actor(req.principal),
        );
        return ok(issueLabels(ctx, repo.id, issue.labels));
      },
    },
  ];
}

function issueLabels(ctx: RouteContext, repoId: number, names: string[]) {
  const repo = ctx.store.repo(repoId);
  return names
    .map((n) => repo.labels.get(n.toLowerCase()))
    .filter((l) => l !== undefined)
    .map((l) => ctx.render.label(repo, l));
}
