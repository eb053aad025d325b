import { z } from "zod";
import { actor, requireRepoAccess, viaApp } from "../auth.ts";
import { notFound } from "../http-error.ts";
import { renderComment, renderIssue, renderReaction } from "../render/issues.ts";
import type { Route, RouteRequest } from "../router.ts";
import { checkBody } from "../state/issue-ops.ts";
import type { Comment, Repo, User } from "../state/types.ts";
import { REACTIONS } from "../state/types.ts";
import { intParam, issueOf, ok, okPage, parseBody, type RouteContext, repoOf } from "./context.ts";

const commentBody = z.object({ body: z.string().min(1) });
const reactionBody = z.object({ content: z.enum(REACTIONS) });

export function commentRoutes(ctx: RouteContext): Route[] {
  const { store, render, clock, bus } = ctx;
  const commentOf = (req: RouteRequest, repo: Repo): Comment => {
    const comment = store.comments.get(intParam(req.params.comment_id));
    if (!comment || comment.repoId !== repo.id) throw notFound();
    return comment;
  };
  const announce = (
    comment: Comment,
    action: string,
    sender: User,
    extra: Record<string, unknown> = {},
  ) => {
    const repo = store.repo(comment.repoId);
    const issue = store.issueByNumber(repo.id, comment.issueNumber);
    bus.emit("issue_comment", repo, sender, {
      action,
      ...extra,
      issue: renderIssue(render, issue, "webhook"),
      comment: renderComment(render, comment, "webhook"),
    });
  };
  return [
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/issues/{issue_number}/comments",
      operationId: "issues/list-comments",
      auth: "public",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "issues", "read");
        const issue = issueOf(ctx, req, repo);
        const since = req.query.get("since");
        const all = store
          .commentsOf(repo.id, issue.number)
          .filter((c) => !since || c.updatedAt >= Date.parse(since));
        return okPage(all, req, `${render.repoUrl(repo)}/issues/${issue.number}/comments`, (c) =>
          renderComment(render, c),
        );
      },
    },
    {
      method: "POST",
      template: "/repos/{owner}/{repo}/issues/{issue_number}/comments",
      operationId: "issues/create-comment",
      auth: "token",
      contentCreating: true,
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "issues", "write", "read");
        const issue = issueOf(ctx, req, repo);
        const { body } = parseBody(commentBody, req.body);
        checkBody(body, "IssueComment");
        const sender = actor(req.principal);
        const now = clock.now();
        const comment: Comment = {
          id: store.id(),
          repoId: repo.id,
          issueNumber: issue.number,
          body,
          userId: sender.id,
          createdAt: now,
          updatedAt: now,
          reactions: [],
          viaAppId: viaApp(req.principal),
        };
        store.comments.set(comment.id, comment);
        issue.updatedAt = now;
        announce(comment, "created", sender);
        return ok(renderComment(render, comment), 201, {
          location: `${render.repoUrl(repo)}/issues/comments/${comment.id}`,
        });
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/issues/comments/{comment_id}",
      operationId: "issues/get-comment",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "issues", "read");
        return ok(renderComment(render, commentOf(req, repo)));
      },
    },
    {
      method: "PATCH",
      template: "/repos/{owner}/{repo}/issues/comments/{comment_id}",
      operationId: "issues/update-comment",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        const comment = commentOf(req, repo);
        const sender = actor(req.principal);
        const own = comment.userId === sender.id;
        requireRepoAccess(req.principal, store, repo, "issues", "write", own ? "read" : "triage");
        const { body } = parseBody(commentBody, req.body);
        checkBody(body, "IssueComment");
        const from = comment.body;
        comment.body = body;
        comment.updatedAt = clock.now();
        announce(comment, "edited", sender, { changes: { body: { from } } });
        return ok(renderComment(render, comment));
      },
    },
    {
      method: "DELETE",
      template: "/repos/{owner}/{repo}/issues/comments/{comment_id}",
      operationId: "issues/delete-comment",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        const comment = commentOf(req, repo);
        const sender = actor(req.principal);
        requireRepoAccess(
          req.principal,
          store,
          repo,
          "issues",
          "write",
          comment.userId === sender.id ? "read" : "triage",
        );
        announce(comment, "deleted", sender);
        store.comments.delete(comment.id);
        return { status: 204 };
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions",
      operationId: "reactions/list-for-issue-comment",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "issues", "read");
        const comment = commentOf(req, repo);
        const content = req.query.get("content");
        const all = comment.reactions.filter((r) => !content || r.content === content);
        return okPage(
          all,
          req,
          `${render.repoUrl(repo)}/issues/comments/${comment.id}/reactions`,
          (r) => renderReaction(render, r),
        );
      },
    },
    {
      method: "POST",
      template: "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions",
      operationId: "reactions/create-for-issue-comment",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "issues", "write", "read");
        const comment = commentOf(req, repo);
        const { content } = parseBody(reactionBody, req.body);
        const sender = actor(req.principal);
        const existing = comment.reactions.find(
          (r) => r.userId === sender.id && r.content === content,
        );
        if (existing) return ok(renderReaction(render, existing), 200);
        const reaction = { id: store.id(), userId: sender.id, content, createdAt: clock.now() };
        comment.reactions.push(reaction);
        return ok(renderReaction(render, reaction), 201);
      },
    },
  ];
}
