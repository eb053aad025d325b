import { timingSafeEqual } from "node:crypto";
import {
  applyTickResult,
  decide,
  type GoalState,
  HarnessResult,
  type PushGrant,
  type Refusal,
  type ResultRequest,
  type ResultResponse,
  redactSecrets,
  spendWorkflowApproval,
  type Tick,
} from "@loopx/core";
import { goalIdOfTick } from "@loopx/store";
import { chainTransitions } from "../handlers/chain-transitions.ts";
import {
  type ApiFailure,
  conflict,
  forbidden,
  invalidRequest,
  notFound,
  unavailable,
} from "./api-failure.ts";
import { goalRepo } from "./ask.ts";
import { authorizeCall, type TickApiContext } from "./authorize-call.ts";
import { recordLateResult } from "./late-result.ts";
import { mintPushGrant, revokeQuietly } from "./push-grant.ts";
import type { ActionsClaims } from "./verify-oidc.ts";

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Loads the tick a `/ticks/:id/…` call names and checks the call is from the run that
 * claimed it: same repository (by id), same workflow run. Shared by result and pushed.
 */
export async function loadTickForRun(
  ctx: TickApiContext,
  claims: ActionsClaims,
  tickId: string,
): Promise<{ state: GoalState; tick: Tick }> {
  const goalId = await goalIdOfTick(ctx.deps.store.db, tickId);
  const state = goalId === null ? null : await ctx.deps.store.loadGoal(goalId);
  const tick = state?.ticks.find((t) => t.id === tickId);
  if (!state || !tick) {
    throw notFound(`There is no tick ${tickId}: use the tick id the ask step returned.`);
  }
  await authorizeCall(ctx, claims, goalRepo(state), "tick");
  if (tick.run?.id !== claims.run_id) {
    throw forbidden(
      `Tick #${tick.number} was claimed by workflow run ${tick.run?.id ?? "(none)"}; this token is from run ${claims.run_id}. Only the run that claimed a tick may report it.`,
    );
  }
  return { state, tick };
}

/** Every string inside a JSON value, redacted; the shape is left as it was. */
function redactStrings(value: unknown): unknown {
  if (typeof value === "string") return redactSecrets(value, []);
  if (Array.isArray(value)) return value.map(redactStrings);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v)]));
  }
  return value;
}

/**
 * Known token shapes are scrubbed at the edge too: the action redacts, the App does not rely
 * on it. Every field, not a list of them: a proposed todo's title or a gate's question is
 * shown on GitHub as surely as a handoff is. Parsed again, so the result stays typed.
 */
function scrub(result: HarnessResult): HarnessResult {
  const parsed = HarnessResult.safeParse(redactStrings(result));
  if (!parsed.success) {
    throw invalidRequest(
      "The result no longer matches the tick API once its secrets are redacted: keep tokens out of URLs and keys.",
    );
  }
  return parsed.data;
}

function resultRefusal(refusal: Refusal): ApiFailure {
  switch (refusal.code) {
    case "invalid_input":
      return invalidRequest(refusal.message);
    case "not_found":
      return notFound(refusal.message);
    case "stale_version":
      return unavailable("The goal changed while the result was applied; report again.", 1);
    default:
      // lease_not_held, lease_expired, duplicate: the result is refused, never merged.
      return conflict(refusal.message);
  }
}

/**
 * POST /api/v1/ticks/:id/result. The kernel checks the lease token, charges the cost once
 * and spends the slot only for validated progress; the push token is minted first (so a
 * GitHub failure leaves nothing recorded and the report can retry) and revoked if the
 * result is then refused. A result after the lease ended is refused and kept as evidence.
 */
export async function report(
  ctx: TickApiContext,
  claims: ActionsClaims,
  tickId: string,
  body: ResultRequest,
): Promise<ResultResponse> {
  const { state, tick } = await loadTickForRun(ctx, claims, tickId);
  if (!sameSecret(tick.leaseToken, body.leaseToken)) {
    throw conflict(
      `The lease token does not match tick #${tick.number}'s lease: send the leaseToken the ask step returned for this tick.`,
    );
  }
  const result = scrub(body.result);
  const dbNow = await ctx.deps.store.dbNow();
  const live = tick.finishedAt === null && tick.leaseExpiresAt.getTime() > dbNow.getTime();
  const grant: PushGrant | null =
    live && result.commits.length > 0 ? await mintPushGrant(ctx, state, tick) : null;

  const seen: { now: Date | null } = { now: null };
  const applied = await ctx.deps.store.apply(
    state.goal.id,
    (s, now) => {
      seen.now = now;
      const tctx = {
        actor: { kind: "agent" as const, tickId, harness: tick.harness },
        now,
        newId: ctx.deps.newId,
      };
      const accepted = applyTickResult(s, { tickId, leaseToken: body.leaseToken, result }, tctx);
      if (!accepted.ok || !grant?.allowWorkflowPaths) return accepted;
      // The push this grant allows spends the .github/ approval, with the result, at once.
      return chainTransitions([
        () => accepted,
        (after, c) => spendWorkflowApproval(after, { tickId }, c),
      ])(s, tctx);
    },
    { source: { tickId } },
  );
  if (!applied.ok) {
    await revokeQuietly(ctx, grant);
    if (applied.refusal.code === "lease_expired") {
      await recordLateResult(ctx, state.goal.id, tick, result);
      ctx.committed();
    }
    throw resultRefusal(applied.refusal);
  }
  ctx.committed();
  const next = decide(applied.state, seen.now ?? dbNow, "app");
  return {
    accepted: true,
    push: grant,
    next: { route: next.route, reason: next.reason, nextWakeAt: next.nextWakeAt },
  };
}
