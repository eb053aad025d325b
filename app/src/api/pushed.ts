import {
  type GoalState,
  isPushedCommit,
  type PushedRequest,
  type PushedResponse,
  type PushRefusal,
  pushedCommitSummary,
  recordPushedCommit,
  recordPushRefused,
  redactSecrets,
  scopesGuarding,
  type Tick,
  todoBranch,
  UNDER_WORKFLOWS,
  workflowApprovals,
} from "@loopx/core";
import type { GateRule } from "@loopx/github";
import { transitionContext } from "../intake/goal-context.ts";
import { DEFAULT_CONFIG, type RepoFacts } from "../repo-facts.ts";
import { conflict, invalidRequest } from "./api-failure.ts";
import type { TickApiContext, TickApiDeps } from "./authorize-call.ts";
import { targeted } from "./dispatch-target.ts";
import { protectedPaths } from "./push-grant.ts";
import { loadTickForRun, sameSecret } from "./report.ts";
import type { ActionsClaims } from "./verify-oidc.ts";

/** What the App learns when a tick's branch reached GitHub; the App opens or updates its pull request here. */
export interface PushedEvent {
  state: GoalState;
  tick: Tick;
  branch: string;
  headSha: string;
  /** The scopes of `.github/loopx.yml`'s `when: open_pr` rules; empty when PRs open freely. */
  openPrScopes: string[];
}

/** Runs after the push is recorded; its failure is logged, never the caller's problem. */
export type OnPushed = (deps: TickApiDeps, event: PushedEvent) => Promise<void>;

/**
 * POST /api/v1/ticks/:id/pushed. A pushed head is recorded as `commit` evidence (once per
 * sha), then handed to `onPushed` — the hook that opens the pull request. A refused push is
 * recorded as `log` evidence (once per head) and goes no further: the work is not on GitHub,
 * so no `pushed` commit is recorded and no pull request is opened for it.
 */
export async function pushed(
  ctx: TickApiContext,
  claims: ActionsClaims,
  tickId: string,
  body: PushedRequest,
  onPushed: OnPushed | undefined,
): Promise<PushedResponse> {
  const { state, tick, facts } = await loadTickForRun(ctx, claims, tickId);
  if (!sameSecret(tick.leaseToken, body.leaseToken)) {
    throw conflict(`The lease token does not match tick #${tick.number}'s lease.`);
  }
  if (tick.finishedAt === null || tick.failure === "lease_expired") {
    throw conflict(
      `Tick #${tick.number} has no accepted result; report the result first, then push with the token it returned.`,
    );
  }
  const branch = todoBranch(state, tick.todo);
  if (body.branch !== branch) {
    throw invalidRequest(`Tick #${tick.number} works on ${branch}, not ${body.branch}.`);
  }
  const rules = (facts.config ?? DEFAULT_CONFIG).gates;
  if ("refused" in body) {
    return recordRefusal(ctx, state, tick, branch, body.refused, rules, facts);
  }
  const openPrScopes = [
    ...new Set(rules.flatMap((r) => ("when" in r && r.when === "open_pr" ? r.scopes : []))),
  ];

  const known = state.evidence.some((e) => e.sha === body.headSha && isPushedCommit(e));
  let recorded = false;
  let latest = state;
  if (!known) {
    const applied = await record(ctx, state, tick, facts, {
      summary: pushedCommitSummary(branch, body.headSha),
      sha: body.headSha,
      // File names are the agent's: a credential in one is withheld like any text it wrote.
      paths: (body.paths ?? []).map((p) => redactSecrets(p, [])),
    });
    // A goal that finished with this very tick refuses new evidence; the push still happened.
    recorded = applied !== null;
    if (applied) latest = applied;
  }
  if (onPushed) {
    try {
      await onPushed(ctx.deps, {
        state: latest,
        tick,
        branch,
        headSha: body.headSha,
        openPrScopes,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      ctx.deps.log.warn(`after the push of ${branch}: ${message}`);
    }
  }
  return { recorded };
}

const REFUSED = "push refused: ";

/** The report job did not push: the goal keeps why, pinned to the head that never landed. */
async function recordRefusal(
  ctx: TickApiContext,
  state: GoalState,
  tick: Tick,
  branch: string,
  refusal: PushRefusal,
  rules: readonly GateRule[],
  facts: RepoFacts,
): Promise<PushedResponse> {
  const known = state.evidence.some(
    (e) => e.kind === "log" && e.sha === refusal.headSha && e.summary.startsWith(REFUSED),
  );
  if (known) return { recorded: false };
  const paths = refusal.paths.length > 0 ? ` (${refusal.paths.slice(0, 5).join(", ")})` : "";
  // Paths are named by the agent: a credential in one withholds the whole line.
  const summary = `${REFUSED}${branch} at ${refusal.headSha.slice(0, 7)} was not pushed — ${redactSecrets(`${refusal.reason}${paths}`, [])}`;
  const applied = await ctx.deps.store.apply(
    state.goal.id,
    (s, now) =>
      targeted(
        recordPushRefused(
          s,
          {
            todo: tick.todo,
            headSha: refusal.headSha,
            summary: summary.slice(0, 500),
            paths: refusal.paths.map((p) => redactSecrets(p, [])),
            // The App's own rules decide what the paths need, not the report's words.
            scopes: scopesGuarding(refusal.paths, protectedPaths(state, rules), {
              githubGuarded: workflowApprovals(state).length === 0,
            }),
            // A patch goes to people only for what only people can push: workflow files.
            ...(refusal.patch !== undefined && refusal.paths.some((p) => UNDER_WORKFLOWS.test(p))
              ? { patch: redactSecrets(refusal.patch, []) }
              : {}),
          },
          transitionContext(
            ctx.deps,
            { kind: "agent", tickId: tick.id, harness: tick.harness },
            now,
          ),
        ),
        facts,
      ),
    { source: { tickId: tick.id } },
  );
  if (applied.ok) ctx.committed();
  return { recorded: applied.ok };
}

/** Records the pushed commit and the files it changed; null when the goal no longer takes it. */
async function record(
  ctx: TickApiContext,
  state: GoalState,
  tick: Tick,
  facts: RepoFacts,
  commit: { summary: string; sha: string; paths: string[] },
): Promise<GoalState | null> {
  const applied = await ctx.deps.store.apply(
    state.goal.id,
    // The result left the next tick's dispatch to this report (see commit.ts).
    (s, now) =>
      targeted(
        recordPushedCommit(
          s,
          { ...commit, todo: tick.todo },
          transitionContext(
            ctx.deps,
            { kind: "agent", tickId: tick.id, harness: tick.harness },
            now,
          ),
        ),
        facts,
      ),
    { source: { tickId: tick.id } },
  );
  if (!applied.ok) return null;
  ctx.committed();
  return applied.state;
}
