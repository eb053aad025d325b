import { z } from "zod";
import { actor, requireRepoAccess, startsWorkflows, viaApp } from "../auth.ts";
import { customValidationFailed, HttpError, validationFailed } from "../http-error.ts";
import { renderPull } from "../render/pulls.ts";
import type { Route, RouteRequest } from "../router.ts";
import { checkBody, closeIssue, newIssue, reopenIssue } from "../state/issue-ops.ts";
import {
  closingIssueNumbers,
  codeOwners,
  computeMergeable,
  fetchForkHead,
  hasCommitsAhead,
  reopenableHead,
} from "../state/pull-ops.ts";
import type { Issue, Pull, Repo, User } from "../state/types.ts";
import { intParam, ok, okPage, parseBody, type RouteContext, repoOf } from "./context.ts";
import { headRepoOf } from "./forks.ts";

const createPull = z.object({
  title: z.string().min(1),
  head: z.string().min(1),
  base: z.string().min(1),
  body: z.string().nullable().optional(),
  draft: z.boolean().optional(),
  maintainer_can_modify: z.boolean().optional(),
});
const updatePull = z.object({
  title: z.string().optional(),
  body: z.string().nullable().optional(),
  state: z.enum(["open", "closed"]).optional(),
  base: z.string().optional(),
  maintainer_can_modify: z.boolean().optional(),
});

/** The `head` filter of `pulls/list`: `owner:branch` (the owner of the head's repository) or `branch`. */
function headMatches(ctx: RouteContext, pull: Pull, head: string): boolean {
  const colon = head.indexOf(":");
  if (colon < 0) return pull.headRef === head;
  const owner = ctx.store.user(ctx.store.repo(pull.headRepoId).ownerId).login;
  return (
    owner.toLowerCase() === head.slice(0, colon).toLowerCase() &&
    pull.headRef === head.slice(colon + 1)
  );
}

export function pullState(
  ctx: RouteContext,
  req: RouteRequest,
): { repo: Repo; pull: Pull; issue: Issue } {
  const repo = repoOf(ctx, req);
  const pull = ctx.store.pull(repo.id, intParam(req.params.pull_number));
  return { repo, pull, issue: ctx.store.issueByNumber(repo.id, pull.number) };
}

export function pullRoutes(ctx: RouteContext): Route[] {
  const { store, render, clock, bus } = ctx;
  const announce = (
    pull: Pull,
    action: string,
    sender: User,
    extra: Record<string, unknown> = {},
  ) => {
    bus.emit("pull_request", store.repo(pull.repoId), sender, {
      action,
      number: pull.number,
      pull_request: renderPull(render, pull, "webhook"),
      ...extra,
    });
  };
  ctx.pullEvents = (issue, action, sender, extra) =>
    announce(store.pull(issue.repoId, issue.number), action, sender, extra);
  const requestReviewers = (pull: Pull, ids: number[], sender: User) => {
    for (const id of ids) {
      if (pull.requestedReviewerIds.includes(id)) continue;
      pull.requestedReviewerIds.push(id);
      announce(pull, "review_requested", sender, {
        requested_reviewer: render.userById(id, "webhook"),
      });
    }
  };
  return [
    {
      method: "POST",
      template: "/repos/{owner}/{repo}/pulls",
      operationId: "pulls/create",
      auth: "token",
      contentCreating: true,
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "pull_requests", "write", "read");
        const body = parseBody(createPull, req.body);
        checkBody(body.body, "PullRequest");
        // `owner:branch` with another owner names a branch of that owner's fork.
        const { repo: headRepo, ref: headRef } = headRepoOf(ctx, repo, body.head);
        const headSha = headRepo.branches.get(headRef);
        const baseSha = repo.branches.get(body.base);
        if (!headSha) throw validationFailed("PullRequest", "head");
        if (!baseSha) throw validationFailed("PullRequest", "base");
        for (const p of store.pulls.values()) {
          const open = store.issueByNumber(p.repoId, p.number).state === "open";
          const sameHead = p.headRepoId === headRepo.id && p.headRef === headRef;
          if (p.repoId === repo.id && open && sameHead && p.baseRef === body.base) {
            throw customValidationFailed(
              "PullRequest",
              `A pull request already exists for ${store.user(headRepo.ownerId).login}:${headRef}.`,
            );
          }
        }
        if (!hasCommitsAhead(store, headRepo, headSha, baseSha)) {
          // GitHub names the base as the head was named: `owner:` only for a qualified head.
          const base = body.head.includes(":")
            ? `${store.user(repo.ownerId).login}:${body.base}`
            : body.base;
          throw customValidationFailed(
            "PullRequest",
            `No commits between ${base} and ${body.head}`,
          );
        }
        const sender = actor(req.principal);
        const issue = newIssue(ctx, repo, {
          title: body.title,
          body: body.body ?? null,
          userId: sender.id,
          isPull: true,
          viaAppId: viaApp(req.principal),
        });
        const pull: Pull = {
          repoId: repo.id,
          number: issue.number,
          headRepoId: headRepo.id,
          headRef,
          headSha,
          baseRef: body.base,
          baseSha,
          draft: body.draft ?? false,
          merged: false,
          mergedAt: null,
          mergedById: null,
          mergeCommitSha: null,
          maintainerCanModify: body.maintainer_can_modify ?? false,
          requestedReviewerIds: [],
          mergeable: null,
          conflicting: false,
          closesIssueNumbers: closingIssueNumbers(repo, body.base, body.body ?? null),
        };
        store.pulls.set(`${repo.id}#${pull.number}`, pull);
        fetchForkHead(store, pull);
        announce(pull, "opened", sender);
        if (startsWorkflows(req.principal)) ctx.triggers?.pullRequest(pull, "opened", sender);
        requestReviewers(
          pull,
          codeOwners(store, repo, pull).filter((id) => id !== sender.id),
          sender,
        );
        return ok(renderPull(render, pull), 201, {
          location: `${render.repoUrl(repo)}/pulls/${pull.number}`,
        });
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/pulls/{pull_number}",
      operationId: "pulls/get",
      auth: "token",
      handle: (req) => {
        const { repo, pull } = pullState(ctx, req);
        requireRepoAccess(req.principal, store, repo, "pull_requests", "read");
        const body = renderPull(render, pull);
        // GitHub computes mergeability in the background: null on the first read after a change.
        if (pull.mergeable === null && !pull.merged)
          pull.mergeable = computeMergeable(store, repo, pull);
        return ok(body);
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/pulls/{pull_number}/files",
      operationId: "pulls/list-files",
      auth: "token",
      handle: (req) => {
        const { repo, pull } = pullState(ctx, req);
        requireRepoAccess(req.principal, store, repo, "pull_requests", "read");
        // "Responses include a maximum of 3000 files", 30 a page by default (per_page ≤ 100).
        const files = store.git(repo).changedFiles(pull.baseSha, pull.headSha).slice(0, 3000);
        const at = pull.headSha;
        return okPage(files, req, `${render.repoUrl(repo)}/pulls/${pull.number}/files`, (f) => {
          // GitHub escapes the whole path in these URLs, slashes too (`src%2Fa.ts`).
          const path = encodeURIComponent(f.filename);
          return {
            sha: f.sha,
            filename: f.filename,
            status: f.status,
            additions: f.additions,
            deletions: f.deletions,
            changes: f.additions + f.deletions,
            blob_url: `${render.repoHtml(repo)}/blob/${at}/${path}`,
            raw_url: `${render.repoHtml(repo)}/raw/${at}/${path}`,
            contents_url: `${render.repoUrl(repo)}/contents/${path}?ref=${at}`,
            ...(f.patch !== undefined ? { patch: f.patch } : {}),
            ...(f.previousFilename !== undefined ? { previous_filename: f.previousFilename } : {}),
          };
        });
      },
    },
    {
      method: "PATCH",
      template: "/repos/{owner}/{repo}/pulls/{pull_number}",
      operationId: "pulls/update",
      auth: "token",
      handle: (req) => {
        const { repo, pull, issue } = pullState(ctx, req);
        const sender = actor(req.principal);
        requireRepoAccess(
          req.principal,
          store,
          repo,
          "pull_requests",
          "write",
          issue.userId === sender.id ? "read" : "write",
        );
        const body = parseBody(updatePull, req.body);
        checkBody(body.body, "PullRequest");
        // A merged PR stays merged; a closed one follows its branch again, if it still can.
        const reopen = body.state === "open" && issue.state === "closed";
        const reopenHead = reopen && !pull.merged ? reopenableHead(store, pull) : null;
        if (reopen && reopenHead === null) throw validationFailed("PullRequest", "state");
        const changes: Record<string, unknown> = {};
        if (body.title !== undefined && body.title !== issue.title) {
          changes.title = { from: issue.title };
          issue.title = body.title;
        }
        if (body.body !== undefined && body.body !== issue.body) {
          changes.body = { from: issue.body ?? "" };
          issue.body = body.body;
        }
        if (body.base !== undefined && body.base !== pull.baseRef) {
          const sha = repo.branches.get(body.base);
          if (!sha) throw validationFailed("PullRequest", "base");
          changes.base = { ref: { from: pull.baseRef }, sha: { from: pull.baseSha } };
          pull.baseRef = body.base;
          pull.baseSha = sha;
          pull.mergeable = null;
        }
        if (body.maintainer_can_modify !== undefined)
          pull.maintainerCanModify = body.maintainer_can_modify;
        pull.closesIssueNumbers = closingIssueNumbers(repo, pull.baseRef, issue.body);
        issue.updatedAt = clock.now();
        if (Object.keys(changes).length > 0) announce(pull, "edited", sender, { changes });
        if (body.state === "closed") closeIssue(ctx, issue, sender);
        if (reopenHead !== null) {
          if (reopenHead !== pull.headSha)
            Object.assign(pull, { headSha: reopenHead, mergeable: null });
          reopenIssue(ctx, issue, sender);
          if (startsWorkflows(req.principal)) ctx.triggers?.pullRequest(pull, "reopened", sender);
        }
        return ok(renderPull(render, pull));
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/pulls",
      operationId: "pulls/list",
      auth: "public",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "pull_requests", "read");
        const state = req.query.get("state") ?? "open";
        const head = req.query.get("head");
        const base = req.query.get("base");
        const all = [...store.pulls.values()]
          .filter((p) => p.repoId === repo.id)
          .filter((p) => state === "all" || store.issueByNumber(repo.id, p.number).state === state)
          .filter((p) => !head || headMatches(ctx, p, head))
          .filter((p) => !base || p.baseRef === base)
          .sort((a, b) => b.number - a.number);
        return okPage(all, req, `${render.repoUrl(repo)}/pulls`, (p) => renderPull(render, p));
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers",
      operationId: "pulls/list-requested-reviewers",
      auth: "token",
      handle: (req) => {
        const { repo, pull } = pullState(ctx, req);
        requireRepoAccess(req.principal, store, repo, "pull_requests", "read");
        return ok({ users: pull.requestedReviewerIds.map((id) => render.userById(id)), teams: [] });
      },
    },
    {
      method: "POST",
      template: "/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers",
      operationId: "pulls/request-reviewers",
      auth: "token",
      handle: (req) => {
        const { repo, pull, issue } = pullState(ctx, req);
        requireRepoAccess(req.principal, store, repo, "pull_requests", "write", "triage");
        const body = parseBody(
          z.object({
            reviewers: z.array(z.string()).optional(),
            team_reviewers: z.array(z.string()).optional(),
          }),
          req.body,
        );
        const ids = (body.reviewers ?? []).map((login) => {
          const user = store.userByLogin(login);
          if (!user || !store.roleOf(repo, user.id)) {
            throw new HttpError(
              422,
              "Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the " +
                `${store.fullName(repo)} repository.`,
            );
          }
          if (user.id === issue.userId)
            throw new HttpError(422, "Review cannot be requested from pull request author.");
          return user.id;
        });
        requestReviewers(pull, ids, actor(req.principal));
        return ok(renderPull(render, pull), 201);
      },
    },
  ];
}
