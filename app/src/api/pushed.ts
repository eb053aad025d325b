import {
  addEvidence,
  branchName,
  type GoalState,
  type PushedRequest,
  type PushedResponse,
  type Tick,
} from "@loopx/core";
import { conflict, invalidRequest } from "./api-failure.ts";
import type { TickApiContext, TickApiDeps } from "./authorize-call.ts";
import { loadTickForRun, sameSecret } from "./report.ts";
import type { ActionsClaims } from "./verify-oidc.ts";

/** What the App learns when a tick's branch reached GitHub; issue 6 opens or updates the PR here. */
export interface PushedEvent {
  state: GoalState;
  tick: Tick;
  branch: string;
  headSha: string;
}

/** Runs after the push is recorded; its failure is logged, never the caller's problem. */
export type OnPushed = (deps: TickApiDeps, event: PushedEvent) => Promise<void>;

/**
 * POST /api/v1/ticks/:id/pushed. Records the pushed head as `commit` evidence (once per
 * sha), then hands the event to `onPushed` — the hook that opens the pull request.
 */
export async function pushed(
  ctx: TickApiContext,
  claims: ActionsClaims,
  tickId: string,
  body: PushedRequest,
  onPushed: OnPushed | undefined,
): Promise<PushedResponse> {
  const { state, tick } = await loadTickForRun(ctx, claims, tickId);
  if (!sameSecret(tick.leaseToken, body.leaseToken)) {
    throw conflict(`The lease token does not match tick #${tick.number}'s lease.`);
  }
  if (tick.finishedAt === null || tick.failure === "lease_expired") {
    throw conflict(
      `Tick #${tick.number} has no accepted result; report the result first, then push with the token it returned.`,
    );
  }
  const branch = branchName(state.goal.issue.number, tick.todo);
  if (body.branch !== branch) {
    throw invalidRequest(`Tick #${tick.number} works on ${branch}, not ${body.branch}.`);
  }
  const known = state.evidence.some(
    (e) => e.kind === "commit" && e.sha === body.headSha && e.summary.startsWith("pushed "),
  );
  let recorded = false;
  let latest = state;
  if (!known) {
    const applied = await ctx.deps.store.apply(
      state.goal.id,
      (s, now) =>
        addEvidence(
          s,
          {
            kind: "commit",
            summary: `pushed ${branch} at ${body.headSha.slice(0, 7)}`,
            todo: tick.todo,
            sha: body.headSha,
          },
          { actor: { kind: "agent", tickId, harness: tick.harness }, now, newId: ctx.deps.newId },
        ),
      { source: { tickId } },
    );
    // A goal that finished with this very tick refuses new evidence; the push still happened.
    recorded = applied.ok;
    if (applied.ok) {
      latest = applied.state;
      ctx.committed();
    }
  }
  if (onPushed) {
    try {
      await onPushed(ctx.deps, { state: latest, tick, branch, headSha: body.headSha });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      ctx.deps.log.warn(`after the push of ${branch}: ${message}`);
    }
  }
  return { recorded };
}
