import { z } from "zod";
import { requireRepoAccess } from "../auth.ts";
import { iso } from "../render/core.ts";
import type { Route } from "../router.ts";
import type { Repo, Ruleset } from "../state/types.ts";
import { ok, parseBody, type RouteContext, repoOf } from "./context.ts";

const statusCheck = z.object({ context: z.string().min(1), integration_id: z.number().optional() });
const rule = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("required_status_checks"),
    parameters: z.object({
      required_status_checks: z.array(statusCheck),
      strict_required_status_checks_policy: z.boolean(),
      do_not_enforce_on_create: z.boolean().optional(),
    }),
  }),
  // Rules the sandbox stores nothing for: accepted as GitHub accepts them, never enforced.
  z.object({ type: z.enum(["deletion", "non_fast_forward", "required_linear_history"]) }),
]);
const createRuleset = z.object({
  name: z.string().min(1),
  target: z.enum(["branch"]).default("branch"),
  enforcement: z.enum(["active", "evaluate", "disabled"]),
  conditions: z
    .object({
      ref_name: z.object({
        include: z.array(z.string()).default([]),
        exclude: z.array(z.string()).default([]),
      }),
    })
    .optional(),
  rules: z.array(rule).default([]),
});

/** `fnmatch` over a ref, as rulesets match `ref_name` (`*` within a segment, `**` across). */
function refMatches(pattern: string, ref: string, repo: Repo): boolean {
  if (pattern === "~ALL") return true;
  if (pattern === "~DEFAULT_BRANCH") return ref === `refs/heads/${repo.defaultBranch}`;
  const source = pattern
    .split("**")
    .map((part) =>
      part
        .split("*")
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^/]*"),
    )
    .join(".*");
  return new RegExp(`^${source}$`).test(ref);
}

export function rulesetApplies(repo: Repo, set: Ruleset, branch: string): boolean {
  const ref = `refs/heads/${branch}`;
  return (
    set.enforcement === "active" &&
    set.include.some((p) => refMatches(p, ref, repo)) &&
    !set.exclude.some((p) => refMatches(p, ref, repo))
  );
}

function renderRuleset(ctx: RouteContext, repo: Repo, set: Ruleset) {
  const url = `${ctx.render.repoUrl(repo)}/rulesets/${set.id}`;
  return {
    id: set.id,
    name: set.name,
    target: "branch",
    source_type: "Repository",
    source: ctx.store.fullName(repo),
    enforcement: set.enforcement,
    bypass_actors: [],
    current_user_can_bypass: "never",
    node_id: Buffer.from(`RRS_${set.id}`).toString("base64"),
    _links: {
      self: { href: url },
      html: { href: `${ctx.render.repoHtml(repo)}/rules/${set.id}` },
    },
    conditions: { ref_name: { include: set.include, exclude: set.exclude } },
    rules: set.requiredChecks.length > 0 ? [statusChecksRule(set)] : [],
    created_at: iso(set.createdAt),
    updated_at: iso(set.updatedAt),
  };
}

function statusChecksRule(set: Ruleset) {
  return {
    type: "required_status_checks",
    parameters: {
      required_status_checks: set.requiredChecks.map((c) =>
        c.integrationId === null
          ? { context: c.context }
          : { context: c.context, integration_id: c.integrationId },
      ),
      strict_required_status_checks_policy: set.strict,
    },
  };
}

/**
 * Repository rulesets, for the rule LoopX reads: required status checks. Creating one needs
 * admin ("Create a repository ruleset"); reading the rules of a branch needs only metadata
 * ("Get rules for a branch": active rulesets only, the branch need not exist).
 */
export function rulesetRoutes(ctx: RouteContext): Route[] {
  const { store, clock } = ctx;
  return [
    {
      method: "POST",
      template: "/repos/{owner}/{repo}/rulesets",
      operationId: "repos/create-repo-ruleset",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "administration", "write", "admin");
        const body = parseBody(createRuleset, req.body);
        const checks = body.rules.flatMap((r) =>
          r.type === "required_status_checks" ? [r.parameters] : [],
        );
        const set: Ruleset = {
          id: store.id(),
          name: body.name,
          enforcement: body.enforcement,
          include: body.conditions?.ref_name.include ?? [],
          exclude: body.conditions?.ref_name.exclude ?? [],
          requiredChecks: checks.flatMap((p) =>
            p.required_status_checks.map((c) => ({
              context: c.context,
              integrationId: c.integration_id ?? null,
            })),
          ),
          strict: checks.some((p) => p.strict_required_status_checks_policy),
          createdAt: clock.now(),
          updatedAt: clock.now(),
        };
        repo.rulesets.push(set);
        return ok(renderRuleset(ctx, repo, set), 201);
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/rules/branches/{branch}",
      operationId: "repos/get-branch-rules",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "metadata", "read");
        const branch = req.params.branch ?? "";
        const rules = repo.rulesets
          .filter((set) => set.requiredChecks.length > 0 && rulesetApplies(repo, set, branch))
          .map((set) => ({
            ...statusChecksRule(set),
            ruleset_source_type: "Repository",
            ruleset_source: ctx.store.fullName(repo),
            ruleset_id: set.id,
          }));
        return ok(rules);
      },
    },
  ];
}
