import { z } from "zod";
import { actor, requireRepoAccess } from "../auth.ts";
import type { CommitInfo } from "../git/git.ts";
import { HttpError, notFound } from "../http-error.ts";
import { nodeId } from "../render/core.ts";
import { renderPull, renderSimplePull } from "../render/pulls.ts";
import type { Route } from "../router.ts";
import type { Repo } from "../state/types.ts";
import { ok, parseBody, type RouteContext, repoOf } from "./context.ts";
import { pullState } from "./pulls.ts";

/** Branches, refs and commits read from the repository's git; plus reviewer removal. */
export function gitDataRoutes(ctx: RouteContext): Route[] {
  const { store, render, bus } = ctx;
  const renderCommit = (repo: Repo, c: CommitInfo) => {
    const url = `${render.repoUrl(repo)}/commits/${c.sha}`;
    const html = `${render.repoHtml(repo)}/commit/${c.sha}`;
    const gitUser = (p: CommitInfo["author"]) => ({
      name: p.name,
      email: p.email,
      date: new Date(p.date).toISOString().replace(".000Z", "Z"),
    });
    const login = (email: string) => {
      const m = /^\d+\+(.+)@users\.noreply\.github\.com$/.exec(email);
      const user = m?.[1] ? store.userByLogin(m[1]) : undefined;
      return user ? render.user(user) : null;
    };
    return {
      url,
      sha: c.sha,
      node_id: nodeId("C", Number.parseInt(c.sha.slice(0, 8), 16)),
      html_url: html,
      comments_url: `${url}/comments`,
      commit: {
        url: `${render.repoUrl(repo)}/git/commits/${c.sha}`,
        author: gitUser(c.author),
        committer: gitUser(c.committer),
        message: c.message,
        comment_count: 0,
        tree: { sha: c.tree, url: `${render.repoUrl(repo)}/git/trees/${c.tree}` },
        verification: {
          verified: false,
          reason: "unsigned",
          signature: null,
          payload: null,
          verified_at: null,
        },
      },
      author: login(c.author.email),
      committer: login(c.committer.email),
      parents: c.parents.map((p) => ({
        sha: p,
        url: `${render.repoUrl(repo)}/commits/${p}`,
        html_url: `${render.repoHtml(repo)}/commit/${p}`,
      })),
    };
  };
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
        const self = `${render.repoUrl(repo)}/branches/${encodeURIComponent(name)}`;
        return ok({
          name,
          commit: renderCommit(repo, store.git(repo).commitInfo(sha)),
          _links: { self, html: `${render.repoHtml(repo)}/tree/${name}` },
          protected: false,
          protection: {
            enabled: false,
            required_status_checks: { enforcement_level: "off", contexts: [], checks: [] },
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
