import { z } from "zod";
import { requireRepoAccess } from "../auth.ts";
import { HttpError } from "../http-error.ts";
import type { Route } from "../router.ts";
import type { BranchProtection, Repo } from "../state/types.ts";
import { ok, parseBody, type RouteContext, repoOf } from "./context.ts";

/** GitHub requires all four keys (each may be null); the sandbox enforces status checks only. */
const updateProtection = z.object({
  required_status_checks: z
    .object({
      strict: z.boolean(),
      contexts: z.array(z.string()),
      checks: z.array(z.object({ context: z.string(), app_id: z.number().optional() })).optional(),
    })
    .nullable(),
  enforce_admins: z.boolean().nullable(),
  required_pull_request_reviews: z.record(z.string(), z.unknown()).nullable(),
  restrictions: z.record(z.string(), z.unknown()).nullable(),
});

/** The `protected-branch` shape, for the part the sandbox models. */
export function renderProtection(
  ctx: RouteContext,
  repo: Repo,
  branch: string,
  rule: BranchProtection,
) {
  const url = `${ctx.render.repoUrl(repo)}/branches/${encodeURIComponent(branch)}/protection`;
  const flag = (name: string, enabled: boolean) => ({ url: `${url}/${name}`, enabled });
  return {
    url,
    required_status_checks: {
      url: `${url}/required_status_checks`,
      strict: rule.strict,
      contexts: rule.contexts,
      checks: rule.contexts.map((context) => ({ context, app_id: null })),
      contexts_url: `${url}/required_status_checks/contexts`,
    },
    enforce_admins: flag("enforce_admins", false),
    required_signatures: flag("required_signatures", false),
    required_linear_history: { enabled: false },
    allow_force_pushes: { enabled: false },
    allow_deletions: { enabled: false },
    block_creations: { enabled: false },
    required_conversation_resolution: { enabled: false },
    lock_branch: { enabled: false },
    allow_fork_syncing: { enabled: false },
  };
}

/** Branch protection: what makes a PR `behind` when its base moved on (strict status checks). */
export function protectionRoutes(ctx: RouteContext): Route[] {
  const { store } = ctx;
  return [
    {
      method: "PUT",
      template: "/repos/{owner}/{repo}/branches/{branch}/protection",
      operationId: "repos/update-branch-protection",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "administration", "write", "admin");
        const branch = req.params.branch ?? "";
        if (!repo.branches.has(branch)) throw new HttpError(404, "Branch not found");
        const body = parseBody(updateProtection, req.body);
        const checks = body.required_status_checks;
        const rule: BranchProtection = {
          strict: checks?.strict ?? false,
          contexts: checks
            ? [...checks.contexts, ...(checks.checks ?? []).map((c) => c.context)]
            : [],
        };
        repo.protection.set(branch, rule);
        // Mergeability of PRs into this branch is computed again on their next read.
        for (const pull of store.pulls.values())
          if (pull.repoId === repo.id && pull.baseRef === branch) pull.mergeable = null;
        return ok(renderProtection(ctx, repo, branch, rule));
      },
    },
  ];
}
