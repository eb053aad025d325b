import { z } from "zod";
import { actor, requireRepoAccess } from "../auth.ts";
import { HttpError } from "../http-error.ts";
import { commitJson, renderStatus } from "../render/commits.ts";
import type { Route } from "../router.ts";
import type { CommitStatus, Repo } from "../state/types.ts";
import { ok, parseBody, type RouteContext, repoOf } from "./context.ts";

const createStatus = z.object({
  state: z.enum(["error", "failure", "pending", "success"]),
  target_url: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  context: z.string().optional(),
});

/** The latest status per context of a commit, newest first (what GitHub combines). */
export function latestStatuses(ctx: RouteContext, repo: Repo, sha: string): CommitStatus[] {
  const latest = new Map<string, CommitStatus>();
  const all = [...ctx.store.statuses.values()]
    .filter((s) => s.repoId === repo.id && s.sha === sha)
    .sort((a, b) => b.id - a.id);
  for (const s of all) if (!latest.has(s.context)) latest.set(s.context, s);
  return [...latest.values()];
}

/** GitHub's rule: any error/failure fails; none at all, or any pending, is pending. */
function combinedState(statuses: CommitStatus[]): "failure" | "pending" | "success" {
  if (statuses.some((s) => s.state === "error" || s.state === "failure")) return "failure";
  if (statuses.length === 0 || statuses.some((s) => s.state === "pending")) return "pending";
  return "success";
}

/** Commit statuses (the older CI API many external services still use) and their webhook. */
export function statusRoutes(ctx: RouteContext): Route[] {
  const { store, render, clock, bus } = ctx;
  const commitOf = (repo: Repo, ref: string): string => {
    const git = store.git(repo);
    const sha = git.resolve(repo.branches.has(ref) ? `refs/heads/${ref}` : ref);
    if (!sha) throw new HttpError(422, `No commit found for SHA: ${ref}`);
    return sha;
  };
  return [
    {
      method: "POST",
      template: "/repos/{owner}/{repo}/statuses/{sha}",
      operationId: "repos/create-commit-status",
      auth: "token",
      contentCreating: true,
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "statuses", "write");
        const body = parseBody(createStatus, req.body);
        const sha = commitOf(repo, req.params.sha ?? "");
        const sender = actor(req.principal);
        const now = clock.now();
        const status: CommitStatus = {
          id: store.id(),
          repoId: repo.id,
          sha,
          state: body.state,
          context: body.context ?? "default",
          description: body.description ?? null,
          targetUrl: body.target_url ?? null,
          creatorId: sender.id,
          createdAt: now,
          updatedAt: now,
        };
        store.statuses.set(status.id, status);
        const git = store.git(repo);
        bus.emit("status", repo, sender, {
          id: status.id,
          sha,
          name: store.fullName(repo),
          target_url: status.targetUrl,
          avatar_url: render.userById(sender.id, "webhook").avatar_url,
          context: status.context,
          description: status.description,
          state: status.state,
          commit: commitJson(render, repo, git.commitInfo(sha), "webhook"),
          branches: [...repo.branches]
            .filter(([, head]) => head === sha)
            .map(([name, head]) => ({
              name,
              commit: { sha: head, url: `${render.repoUrl(repo)}/commits/${head}` },
              protected: repo.protection.has(name),
            })),
          created_at: new Date(status.createdAt).toISOString(),
          updated_at: new Date(status.updatedAt).toISOString(),
        });
        return ok(renderStatus(render, status), 201, {
          location: `${render.repoUrl(repo)}/statuses/${sha}`,
        });
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/commits/{ref}/status",
      operationId: "repos/get-combined-status-for-ref",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "statuses", "read");
        const sha = commitOf(repo, req.params.ref ?? "");
        const statuses = latestStatuses(ctx, repo, sha);
        return ok({
          state: combinedState(statuses),
          statuses: statuses.map((s) => renderStatus(render, s, true)),
          sha,
          total_count: statuses.length,
          repository: render.repoLite(repo),
          commit_url: `${render.repoUrl(repo)}/commits/${sha}`,
          url: `${render.repoUrl(repo)}/commits/${sha}/status`,
        });
      },
    },
  ];
}
