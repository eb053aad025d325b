import { z } from "zod";
import { actor, requireRepoAccess } from "../auth.ts";
import type { CommitInfo } from "../git/git.ts";
import { HttpError, notFound } from "../http-error.ts";
import { commitJson } from "../render/commits.ts";
import { nodeId } from "../render/core.ts";
import { renderPull, renderSimplePull } from "../render/pulls.ts";
import type { Route } from "../router.ts";
import type { Repo } from "../state/types.ts";
import { ok, parseBody, type RouteContext, repoOf } from "./context.ts";
import { pullState } from "./pulls.ts";

/** Branches, refs and commits read from the repository's git; plus reviewer removal. */
export function gitDataRoutes(ctx: RouteContext): Route[] {
  const { store, render, bus } = ctx;
  const renderCommit = (repo: Repo, c: CommitInfo) => commitJson(render, repo, c);
  return [
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/branches/{branch}",
      operationId: "repos/get-branch",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "contents", "read");
        const name = req.params.branch ?? "";
        const sha = repo.branches.get(name);
        if (!sha) throw new HttpError(404, "Branch not found");
        const rule = repo.protection.get(name);
        const self = `${render.repoUrl(repo)}/branches/${encodeURIComponent(name)}`;
        return ok({
          name,
          commit: renderCommit(repo, store.git(repo).commitInfo(sha)),
          _links: { self, html: `${render.repoHtml(repo)}/tree/${name}` },
          protected: rule !== undefined,
          protection: {
            enabled: rule !== undefined,
            required_status_checks: {
              enforcement_level: rule ? "non_admins" : "off",
              contexts: rule?.contexts ?? [],
              checks: (rule?.contexts ?? []).map((context) => ({ context, app_id: null })),
            },
          },
          protection_url: `${self}/protection`,
        });
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/git/ref/{ref}",
      operationId: "git/get-ref",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "contents", "read");
        const ref = (req.params.ref ?? "").replace(/^refs\//, "");
        const branch = ref.startsWith("heads/") ? ref.slice("heads/".length) : null;
        const sha = branch === null ? null : repo.branches.get(branch);
        if (!sha) throw notFound();
        return ok({
          ref: `refs/${ref}`,
          node_id: nodeId("REF", repo.id),
          url: `${render.repoUrl(repo)}/git/refs/${ref}`,
          object: { type: "commit", sha, url: `${render.repoUrl(repo)}/git/commits/${sha}` },
        });
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/commits/{ref}",
      operationId: "repos/get-commit",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "contents", "read");
        const ref = req.params.ref ?? "";
        const git = store.git(repo);
        const sha = git.resolve(repo.branches.has(ref) ? `refs/heads/${ref}` : ref);
        if (!sha) throw new HttpError(422, `No commit found for SHA: ${ref}`);
        const changes = git.commitChanges(sha);
        const files = [
          ...changes.added.map((f) => ({ filename: f, status: "added" })),
          ...changes.removed.map((f) => ({ filename: f, status: "removed" })),
          ...changes.modified.map((f) => ({ filename: f, status: "modified" })),
        ].map((f) => ({
          ...f,
          sha: sha,
          additions: 0,
          deletions: 0,
          changes: 0,
          blob_url: `${render.repoHtml(repo)}/blob/${sha}/${f.filename}`,
          raw_url: `${render.repoHtml(repo)}/raw/${sha}/${f.filename}`,
          contents_url: `${render.repoUrl(repo)}/contents/${f.filename}?ref=${sha}`,
        }));
        return ok({ ...renderCommit(repo, git.commitInfo(sha)), files });
      },
    },
    {
      method: "DELETE",
      template: "/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers",
      operationId: "pulls/remove-requested-reviewers",
      auth: "token",
      handle: (req) => {
        const { repo, pull } = pullState(ctx, req);
        requireRepoAccess(req.principal, store, repo, "pull_requests", "write", "triage");
        const body = parseBody(
          z.object({
            reviewers: z.array(z.string()),
            team_reviewers: z.array(z.string()).optional(),
          }),
          req.body,
        );
        const sender = actor(req.principal);
        for (const login of body.reviewers) {
          const user = store.userByLogin(login);
          if (!user || !pull.requestedReviewerIds.includes(user.id)) continue;
          pull.requestedReviewerIds = pull.requestedReviewerIds.filter((id) => id !== user.id);
          bus.emit("pull_request", repo, sender, {
            action: "review_request_removed",
            number: pull.number,
            pull_request: renderPull(render, pull, "webhook"),
            requested_reviewer: render.user(user, "webhook"),
          });
        }
        return ok(renderSimplePull(render, pull));
      },
    },
  ];
}
