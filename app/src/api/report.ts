import { timingSafeEqual } from "node:crypto";
import {
  applyTickResult,
  decide,
  type GoalState,
  HarnessResult,
  interruptionOf,
  type PushGrant,
  type Refusal,
  type ResultRequest,
  type ResultResponse,
  redactFields,
  spendWorkflowApproval,
  type Tick,
  type TransitionContext,
} from "@loopx/core";
import { chainTransitions } from "../intake/chain-transitions.ts";
import { transitionContext } from "../intake/goal-context.ts";
import { DEFAULT_CONFIG, type RepoFacts } from "../repo-facts.ts";
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
import { billedMinutes } from "./billed-minutes.ts";
import { targeted } from "./dispatch-target.ts";
import { jobStep, wakeOnlyIfRunnable } from "./job-step.ts";
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
): Promise<{ state: GoalState; tick: Tick; facts: RepoFacts }> {
  const goalId = await ctx.deps.store.goalIdOfTick(tickId);
  const state = goalId === null ? null : await ctx.deps.store.loadGoal(goalId);
  const tick = state?.ticks.find((t) => t.id === tickId);
  if (!state || !tick) {
    throw notFound(`There is no tick ${tickId}: use the tick id the ask step returned.`);
  }
  const facts = await authorizeCall(ctx, claims, goalRepo(state), "tick");
  if (tick.run?.id !== claims.run_id) {
    throw forbidden(
      `Tick #${tick.number} was claimed by workflow run ${tick.run?.id ?? "(none)"}; this token is from run ${claims.run_id}. Only the run that claimed a tick may report it.`,
    );
  }
  return { state, tick, facts };
}

/**
 * Token shapes are withheld at the edge too, in every encoding: the action redacts, the App
 * does not rely on it. Every field, not a list of them: a proposed todo's title or a gate's
 * question is shown on GitHub as surely as a handoff is. Parsed again, so the result stays
 * typed; the fields withheld here join those the action withheld, for the ledger.
 */
function scrub(result: HarnessResult): HarnessResult {
  const withheld: string[] = [];
  const { withheld: already, ...fields } = result;
  const shown = redactFields(fields, [], withheld);
  const parsed = HarnessResult.safeParse({
    ...shown,
    withheld: [...new Set([...already, ...withheld])].slice(0, 50),
  });
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
 * The run's runner minutes from the jobs API (what GitHub bills), never the agent job's own
 * figure; `now` is GitHub's clock as the OIDC checks read it (the report job is still running).
 * When GitHub cannot say, the tick's cap: a figure nobody can check is not charged low.
 */
async function runnerMinutes(
  ctx: TickApiContext,
  state: GoalState,
  runId: number,
  now: Date,
): Promise<number> {
  try {
    const port = await ctx.deps.readsFor(state.goal.installationId);
    const jobs = await port.listRunJobs(
      { owner: state.goal.repo.owner, repo: state.goal.repo.name },
      runId,
    );
    return billedMinutes(jobs, now);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.deps.log.warn(`runner minutes of run ${runId} (charging the tick's cap): ${message}`);
    return state.goal.tickCap.runnerMinutes;
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
  const { state, tick, facts } = await loadTickForRun(ctx, claims, tickId);
  if (!sameSecret(tick.leaseToken, body.leaseToken)) {
    throw conflict(
      `The lease token does not match tick #${tick.number}'s lease: send the leaseToken the ask step returned for this tick.`,
    );
  }
  const dbNow = await ctx.deps.store.databaseNow();
  const scrubbed = scrub(body.result);
  const actor = { kind: "agent" as const, tickId, harness: tick.harness };
  // The kernel is pure: a result it would refuse is refused before anything asks GitHub.
  const trial = applyTickResult(
    state,
    { tickId, leaseToken: body.leaseToken, result: scrubbed },
    transitionContext(ctx.deps, actor, dbNow),
  );
  if (
    !trial.ok &&
    trial.refusal.code !== "lease_expired" &&
    trial.refusal.code !== "stale_version"
  ) {
    throw resultRefusal(trial.refusal);
  }
  const result: HarnessResult = {
    ...scrubbed,
    cost: {
      ...scrubbed.cost,
      runnerMinutes: await runnerMinutes(ctx, state, claims.run_id, ctx.now()),
    },
  };
  const live = tick.finishedAt === null && tick.leaseExpiresAt.getTime() > dbNow.getTime();
  const rules = (facts.config ?? DEFAULT_CONFIG).gates;
  // A stopped tick pushes nothing; a paused one pushes its work in progress.
  const interrupted = interruptionOf(tick);
  const grant: PushGrant | null =
    live && result.commits.length > 0 && interrupted !== "stopped"
      ? await mintPushGrant(ctx, state, tick, rules, dbNow)
      : null;

  const seen: { now: Date | null } = { now: null };
  const applied = await ctx.deps.store.apply(
    state.goal.id,
    (s, now) => {
      seen.now = now;
      const tctx = transitionContext(ctx.deps, actor, now);
      const accepted = applyTickResult(s, { tickId, leaseToken: body.leaseToken, result }, tctx);
      const job = accepted.ok ? jobStep(result, tickId, facts) : null;
      if (!accepted.ok || (!grant?.allowWorkflowPaths && job === null)) {
        return targeted(accepted, facts);
      }
      const chained = chainTransitions([
        () => accepted,
        // The push this grant allows spends the .github/ approval, with the result, at once.
        ...(grant?.allowWorkflowPaths
          ? [
              (after: GoalState, c: TransitionContext) =>
                spendWorkflowApproval(after, { tickId }, c),
            ]
          : []),
        ...(job ? [job] : []),
      ])(s, tctx);
      return targeted(job ? wakeOnlyIfRunnable(chained, now) : chained, facts);
    },
    // The goal loadTickForRun read is the result's aggregate unless it changed since.
    { source: { tickId }, loaded: state },
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
    ...(interrupted ? { interrupted } : {}),
  };
}
