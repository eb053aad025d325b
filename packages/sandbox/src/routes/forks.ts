import { z } from "zod";
import { actor, requireRepoAccess } from "../auth.ts";
import { HttpError } from "../http-error.ts";
import type { Route } from "../router.ts";
import type { Repo } from "../state/types.ts";
import { ok, parseBody, type RouteContext, repoOf } from "./context.ts";

const createFork = z.object({
  organization: z.string().optional(),
  name: z.string().optional(),
  default_branch_only: z.boolean().optional(),
});

/**
 * The repository holding a PR's head, from `head` as `pulls/create` takes it: `branch` (this
 * repository) or `owner:branch`, where another owner means that owner's fork of it.
 */
export function headRepoOf(
  ctx: RouteContext,
  base: Repo,
  head: string,
): { repo: Repo; ref: string } {
  const colon = head.indexOf(":");
  if (colon < 0) return { repo: base, ref: head };
  const owner = head.slice(0, colon).toLowerCase();
  const ref = head.slice(colon + 1);
  if (ctx.store.user(base.ownerId).login.toLowerCase() === owner) return { repo: base, ref };
  const fork = [...ctx.store.repos.values()].find(
    (r) => r.forkOfId === base.id && ctx.store.user(r.ownerId).login.toLowerCase() === owner,
  );
  if (!fork)
    throw new HttpError(422, "Validation Failed", {
      errors: [{ resource: "PullRequest", field: "head", code: "invalid" }],
    });
  return { repo: fork, ref };
}

/** `POST /repos/{o}/{r}/forks`: a copy under the caller (or an organization), and `fork`. */
export function forkRoutes(ctx: RouteContext): Route[] {
  const { store, render, clock, bus } = ctx;
  return [
    {
      method: "POST",
      template: "/repos/{owner}/{repo}/forks",
      operationId: "repos/create-fork",
      auth: "token",
      contentCreating: true,
      handle: (req) => {
        const parent = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, parent, "contents", "read");
        const body = parseBody(createFork, req.body);
        const sender = actor(req.principal);
        const owner = body.organization ? store.userByLogin(body.organization) : sender;
        if (!owner) throw new HttpError(422, "Invalid organization name");
        const name = body.name ?? parent.name;
        const existing = [...store.repos.values()].find(
          (r) => r.ownerId === owner.id && r.name.toLowerCase() === name.toLowerCase(),
        );
        // Forking again answers the existing fork, as GitHub does.
        if (existing?.forkOfId === parent.id) return ok(render.repo(existing), 202);
        if (existing) throw new HttpError(422, "Name already exists on this account");
        if (!ctx.root) throw new Error("sandbox: forking needs the git root");
        const gitDir = ctx.root.fork(parent.gitDir, `${owner.login}/${name}`);
        const now = clock.now();
        const fork: Repo = {
          id: store.id(),
          ownerId: owner.id,
          name,
          description: parent.description,
          private: parent.private,
          defaultBranch: parent.defaultBranch,
          createdAt: now,
          updatedAt: now,
          pushedAt: now,
          nextNumber: 1,
          collaborators: new Map(),
          labels: new Map(),
          branches: new Map(),
          gitDir,
          forkOfId: parent.id,
          protection: new Map(),
          rulesets: [],
        };
        const git = store.git(fork);
        for (const [branch, sha] of git.branches()) {
          if (body.default_branch_only && branch !== parent.defaultBranch) {
            git.run(["update-ref", "-d", `refs/heads/${branch}`]);
            continue;
          }
          fork.branches.set(branch, sha);
        }
        store.repos.set(fork.id, fork);
        bus.emit("fork", parent, sender, { forkee: render.repo(fork, "webhook") });
        return ok(render.repo(fork), 202);
      },
    },
  ];
}
