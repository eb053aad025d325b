import {
  type GoalState,
  type PushGrant,
  runningTicks,
  scopeCovers,
  type Tick,
  todoBranch,
  workflowApprovals,
} from "@loopx/core";
import { type GateRule, GitHubError } from "@loopx/github";
import { unavailable } from "./api-failure.ts";
import type { TickApiContext } from "./authorize-call.ts";

/**
 * The path rules of `.github/loopx.yml` that still stand between this goal and a push: those
 * with a scope no approved gate (or standing grant) covers. The report job checks every file
 * of the slice's commit against them.
 */
export function protectedPaths(
  state: GoalState,
  rules: readonly GateRule[],
): { paths: string[]; scopes: string[] }[] {
  const grants = [
    ...state.goal.grantedScopes,
    ...state.gates.filter((g) => g.status === "approved").flatMap((g) => g.scopes),
  ];
  return rules
    .filter((r): r is Extract<GateRule, { paths: string[] }> => "paths" in r)
    .filter((r) => r.scopes.some((s) => !grants.some((g) => scopeCovers(g, s))))
    .map((r) => ({ paths: r.paths, scopes: r.scopes }));
}

/**
 * What the goal's other running ticks declared they touch, by todo: this tick's push may not
 * carry a change to those paths while they run. A running todo without declared paths never
 * runs beside another, so it has none to hold.
 */
export function heldPaths(
  state: GoalState,
  tick: Pick<Tick, "id">,
  now: Date,
): { todo: string; paths: string[] }[] {
  return runningTicks(state, now)
    .filter((t) => t.id !== tick.id)
    .flatMap((t) => {
      const todo = state.todos.find((x) => x.key === t.todo);
      return todo && todo.paths.length > 0 ? [{ todo: todo.key, paths: todo.paths }] : [];
    });
}

/**
 * Mints the token the report job pushes the todo's branch with: an installation token for
 * THIS repository only, contents + pull requests (never `workflows`), expiring within the
 * hour GitHub gives installation tokens. The job revokes it when done.
 */
export async function mintPushGrant(
  ctx: TickApiContext,
  state: GoalState,
  tick: Tick,
  rules: readonly GateRule[],
  now: Date,
): Promise<PushGrant> {
  try {
    const minted = await ctx.deps.appGitHub.mintRepoToken(
      state.goal.installationId,
      state.goal.repo.id,
      { contents: "write", pull_requests: "write" },
    );
    return {
      token: minted.token,
      expiresAt: minted.expiresAt,
      branch: todoBranch(state, tick.todo),
      // One push per approval: the result that gets this grant spends it (report.ts).
      allowWorkflowPaths: workflowApprovals(state).length > 0,
      protectedPaths: protectedPaths(state, rules),
      heldPaths: heldPaths(state, tick, now),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.deps.log.warn(`push token for tick ${tick.id}: ${message}`);
    const retry = error instanceof GitHubError ? error.retryAfterSeconds : null;
    throw unavailable(
      "GitHub did not mint the push token for this tick; nothing was recorded. Retry the report (with a fresh OIDC token).",
      retry === null ? 30 : Math.ceil(retry),
    );
  }
}

/** Best effort: a grant minted for a result that was then refused is revoked at once. */
export async function revokeQuietly(ctx: TickApiContext, grant: PushGrant | null): Promise<void> {
  if (grant === null) return;
  try {
    await ctx.deps.appGitHub.revokeToken(grant.token);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.deps.log.warn(`revoking an unused push token failed (it expires by itself): ${message}`);
  }
}
