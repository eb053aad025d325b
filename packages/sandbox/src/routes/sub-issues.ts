import { z } from "zod";
import { actor, requireRepoAccess } from "../auth.ts";
import { HttpError, notFound } from "../http-error.ts";
import { renderIssue } from "../render/issues.ts";
import type { Route } from "../router.ts";
import type { Issue, User } from "../state/types.ts";
import { issueOf, ok, okPage, parseBody, type RouteContext, repoOf } from "./context.ts";

export const SUB_ISSUE_LIMIT = 100;
/** GitHub's deepest hierarchy: a parent and up to eight levels of sub-issues under it. */
export const SUB_ISSUE_DEPTH = 8;

const refused = (message: string) =>
  new HttpError(422, "Validation Failed", {
    errors: [{ resource: "Issue", code: "custom", message }],
  });

/** GitHub wants the numeric issue id as an integer; a string is a 422. */
const addBody = z.object({
  sub_issue_id: z.number().int(),
  replace_parent: z.boolean().optional(),
});
const removeBody = z.object({ sub_issue_id: z.number().int() });
const priorityBody = z.object({
  sub_issue_id: z.number().int(),
  after_id: z.number().int().optional(),
  before_id: z.number().int().optional(),
});

export function subIssueRoutes(ctx: RouteContext): Route[] {
  const { store, render, clock, bus } = ctx;
  const byId = (id: number): Issue => {
    const issue = store.issues.get(id);
    if (!issue) throw notFound();
    return issue;
  };
  const announce = (action: string, parent: Issue, sub: Issue, sender: User) => {
    const parentRepo = store.repo(parent.repoId);
    const subRepo = store.repo(sub.repoId);
    const common = {
      sub_issue_id: sub.id,
      sub_issue: renderIssue(render, sub),
      sub_issue_repo: render.repo(subRepo),
      parent_issue_id: parent.id,
      parent_issue: renderIssue(render, parent),
      parent_issue_repo: render.repo(parentRepo),
    };
    const [ownSide, otherSide] =
      action === "added"
        ? ["sub_issue_added", "parent_issue_added"]
        : ["sub_issue_removed", "parent_issue_removed"];
    bus.emit("sub_issues", parentRepo, sender, { action: ownSide, ...common });
    bus.emit("sub_issues", subRepo, sender, { action: otherSide, ...common });
  };
  return [
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/issues/{issue_number}/sub_issues",
      operationId: "issues/list-sub-issues",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "issues", "read");
        const parent = issueOf(ctx, req, repo);
        const subs = parent.subIssueIds.map(byId);
        return okPage(
          subs,
          req,
          `${render.repoUrl(repo)}/issues/${parent.number}/sub_issues`,
          (i) => renderIssue(render, i),
        );
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/issues/{issue_number}/parent",
      operationId: "issues/get-parent",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "issues", "read");
        const issue = issueOf(ctx, req, repo);
        if (issue.parentId === null) throw notFound();
        return ok(renderIssue(render, byId(issue.parentId)));
      },
    },
    {
      method: "POST",
      template: "/repos/{owner}/{repo}/issues/{issue_number}/sub_issues",
      operationId: "issues/add-sub-issue",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "issues", "write", "triage");
        const parent = issueOf(ctx, req, repo);
        const body = parseBody(addBody, req.body);
        const sub = store.issues.get(body.sub_issue_id);
        if (!sub)
          throw new HttpError(422, "Validation Failed", {
            errors: [
              {
                resource: "Issue",
                field: "sub_issue_id",
                code: "invalid",
                message: "The provided sub-issue does not exist",
              },
            ],
          });
        if (store.repo(sub.repoId).ownerId !== repo.ownerId) {
          throw new HttpError(422, "Validation Failed", {
            errors: [
              {
                resource: "Issue",
                code: "custom",
                message: "Sub-issues must belong to the same owner as the parent issue",
              },
            ],
          });
        }
        if (sub.id === parent.id || parent.subIssueIds.includes(sub.id)) {
          throw new HttpError(422, "Validation Failed", {
            errors: [
              {
                resource: "Issue",
                code: "custom",
                message: "Issue may not contain duplicate sub-issues",
              },
            ],
          });
        }
        // Linking an ancestor under its own descendant would make the hierarchy a cycle.
        const ancestors: Issue[] = [];
        for (let at = parent; at.parentId !== null; ) {
          at = byId(at.parentId);
          ancestors.push(at);
        }
        if (ancestors.some((a) => a.id === sub.id)) {
          throw refused("An issue cannot be a sub-issue of its own sub-issue");
        }
        // Levels below `parent`'s root after the link: parent's depth, plus the sub-issue's own tree.
        const below = (i: Issue): number =>
          1 + Math.max(0, ...i.subIssueIds.map((id) => below(byId(id))));
        if (ancestors.length + below(sub) > SUB_ISSUE_DEPTH) {
          throw refused(`Sub-issues may be nested at most ${SUB_ISSUE_DEPTH} levels deep`);
        }
        if (parent.subIssueIds.length >= SUB_ISSUE_LIMIT) {
          throw new HttpError(422, "Validation Failed", {
            errors: [
              {
                resource: "Issue",
                code: "custom",
                message: `Parent cannot have more than ${SUB_ISSUE_LIMIT} sub-issues`,
              },
            ],
          });
        }
        const sender = actor(req.principal);
        if (sub.parentId !== null) {
          if (!body.replace_parent) {
            throw new HttpError(422, "Validation Failed", {
              errors: [
                {
                  resource: "Issue",
                  code: "custom",
                  message:
                    "Issue may not contain duplicate sub-issues and may only have one parent",
                },
              ],
            });
          }
          const old = byId(sub.parentId);
          old.subIssueIds = old.subIssueIds.filter((id) => id !== sub.id);
          announce("removed", old, sub, sender);
        }
        parent.subIssueIds.push(sub.id);
        sub.parentId = parent.id;
        parent.updatedAt = clock.now();
        announce("added", parent, sub, sender);
        return ok(renderIssue(render, parent), 201, {
          location: `${render.repoUrl(repo)}/issues/${parent.number}/sub_issues`,
        });
      },
    },
    {
      method: "DELETE",
      template: "/repos/{owner}/{repo}/issues/{issue_number}/sub_issue",
      operationId: "issues/remove-sub-issue",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "issues", "write", "triage");
        const parent = issueOf(ctx, req, repo);
        const { sub_issue_id } = parseBody(removeBody, req.body);
        if (!parent.subIssueIds.includes(sub_issue_id)) throw notFound();
        const sub = byId(sub_issue_id);
        parent.subIssueIds = parent.subIssueIds.filter((id) => id !== sub.id);
        sub.parentId = null;
        parent.updatedAt = clock.now();
        announce("removed", parent, sub, actor(req.principal));
        return ok(renderIssue(render, sub));
      },
    },
    {
      method: "PATCH",
      template: "/repos/{owner}/{repo}/issues/{issue_number}/sub_issues/priority",
      operationId: "issues/reprioritize-sub-issue",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "issues", "write", "triage");
        const parent = issueOf(ctx, req, repo);
        const body = parseBody(priorityBody, req.body);
        const anchor = body.after_id ?? body.before_id;
        if (
          (body.after_id === undefined) === (body.before_id === undefined) ||
          anchor === undefined
        ) {
          throw new HttpError(422, "Exactly one of after_id or before_id must be provided");
        }
        if (
          !parent.subIssueIds.includes(body.sub_issue_id) ||
          !parent.subIssueIds.includes(anchor)
        ) {
          throw new HttpError(422, "The sub-issue or the anchor is not a sub-issue of this issue");
        }
        const rest = parent.subIssueIds.filter((id) => id !== body.sub_issue_id);
        const at = rest.indexOf(anchor) + (body.after_id !== undefined ? 1 : 0);
        rest.splice(at, 0, body.sub_issue_id);
        parent.subIssueIds = rest;
        return ok(renderIssue(render, parent));
      },
    },
  ];
}
