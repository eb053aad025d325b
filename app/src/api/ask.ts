import { randomBytes } from "node:crypto";
import {
  type AskRequest,
  type AskResponse,
  buildBrief,
  type ClaimOutcome,
  type CostLimits,
  claimNext,
  costLeft,
  type Decision,
  type GoalState,
  type Refusal,
  type SharedAllowance,
  type SliceLimits,
  todoBranch,
} from "@loopx/core";
import { transitionContext } from "../intake/goal-context.ts";
import type { RepoFacts } from "../repo-facts.ts";
import { conflict, forbidden, invalidRequest, notFound, unavailable } from "./api-failure.ts";
import { authorizeCall, type GoalRepo, type TickApiContext } from "./authorize-call.ts";
import type { ActionsClaims } from "./verify-oidc.ts";

export function goalRepo(state: GoalState): GoalRepo {
  const { goal } = state;
  return {
    installationId: goal.installationId,
    repoId: goal.repo.id,
    ownerId: goal.repo.ownerId,
    owner: goal.repo.owner,
    name: goal.repo.name,
  };
}

const min = (a: number, b: number | undefined) => (b === undefined ? a : Math.min(a, b));

/**
 * The slice's bounds: the goal's tick cap, lowered (never raised) by what the workflow asked
 * and, for USD, by what the goal's budget and the shared allowances have left: the metering
 * proxy refuses model calls past it, so a goal reaching its budget mid-slice stops there. On
 * the last of a budget it also lets no call start that could cross it (`usdFrom: budget`).
 */
function sliceLimits(
  ctx: TickApiContext,
  state: GoalState,
  asked: CostLimits | undefined,
  allowance: SharedAllowance,
) {
  const cap = state.goal.tickCap;
  const left = costLeft(state.goal, allowance).usd;
  const capped = min(cap.usd, asked?.usd);
  return {
    wallMinutes: Math.max(1, min(cap.runnerMinutes, asked?.runnerMinutes)),
    idleMinutes: ctx.settings.idleMinutes,
    maxTurns: ctx.settings.maxTurns,
    usd: Math.max(0, min(capped, left)),
    usdFrom: left !== undefined && left < capped ? "budget" : "tick_cap",
  } satisfies SliceLimits;
}

function waitAnswer(route: AskResponse["route"], reason: string, nextWakeAt: Date | null) {
  return { run: false as const, route, reason, nextWakeAt };
}

/** A claim refused before decide() had its say: a protocol error, not a wait. */
function claimRefusal(refusal: Refusal): never {
  switch (refusal.code) {
    case "duplicate":
      throw conflict(
        `${refusal.message} Re-running a tick needs a new workflow run (or a new attempt), not a second ask from the same one.`,
      );
    case "invalid_input":
      throw invalidRequest(refusal.message);
    case "stale_version":
      throw unavailable("The goal changed while the claim was applied; ask again.", 1);
    default:
      throw conflict(refusal.message);
  }
}

/**
 * POST /api/v1/ticks. A wait answers run:false and writes nothing anywhere (no GitHub
 * request, no database row besides the used token); a run claims one todo under a lease on
 * the database clock and hands back the brief the slice works from.
 */
export async function ask(
  ctx: TickApiContext,
  claims: ActionsClaims,
  body: AskRequest,
): Promise<AskResponse> {
  const { store } = ctx.deps;
  const found = await store.findGoalByIssue(claims.repository_id, body.goal);
  if (!found) {
    // A repository LoopX has no goal in (e.g. another repository with the same name) is not
    // the caller's typo: it is refused as such.
    if ((await store.goalsOfRepo(claims.repository_id)).length === 0) {
      throw forbidden(
        `Repository ${claims.repository} (id ${claims.repository_id}) has no LoopX goal: the App is not installed there, or no issue was labelled. Tokens are matched by repository id, never by name.`,
      );
    }
    throw notFound(
      `There is no LoopX goal for issue #${body.goal} in ${claims.repository}: the workflow's \`goal\` input must be the number of an issue labelled for LoopX.`,
    );
  }
  const facts = await authorizeCall(ctx, claims, goalRepo(found), "tick");

  const standing = await store.installationStanding(found.goal.installationId);
  if (standing.killed || standing.suspended) {
    const why = standing.killed ? "its kill switch is on" : "the installation is suspended";
    return waitAnswer("stopped", `LoopX is switched off for this account: ${why}.`, null);
  }
  const allowance = await store.sharedAllowance(found.goal.id);
  const limits = sliceLimits(ctx, found, body.limits, allowance);
  const leaseMinutes = Math.min(
    24 * 60,
    Math.max(ctx.settings.leaseTtlMinutes, limits.wallMinutes + ctx.settings.reportMinutes),
  );
  const tickId = ctx.deps.newId();
  const leaseToken = randomBytes(32).toString("base64url");

  // The transition runs inside the store's transaction; decide()'s answer is read back here.
  const seen: { decision: Decision | null } = { decision: null };
  const applied = await store.apply(
    found.goal.id,
    (state, now) => {
      const outcome: ClaimOutcome = claimNext(
        state,
        {
          tickId,
          leaseToken,
          agent: `actions-run-${claims.run_id}`,
          harness: state.goal.harness,
          run: { id: claims.run_id, attempt: claims.run_attempt },
          slot: body.slot ?? "",
          // Read with this tick's config, so a change of `parallel` reaches a running goal.
          ...(facts.config ? { parallel: facts.config.parallel } : {}),
          leaseTtlMs: Math.round(leaseMinutes * 60_000),
          allowance,
          ...(body.limits ? { callerLimits: body.limits } : {}),
        },
        transitionContext(ctx.deps, { kind: "agent", tickId, harness: state.goal.harness }, now),
      );
      seen.decision = outcome.decision;
      return outcome.result;
    },
    // The goal read above is the claim's aggregate unless it changed since: one load.
    { source: { tickId }, loaded: found },
  );
  const decision = seen.decision;
  if (!applied.ok) {
    // decide() answered something other than run: a wait, told to the workflow, nothing kept.
    if (decision !== null && applied.refusal.code !== "duplicate") {
      return waitAnswer(decision.route, decision.reason, decision.nextWakeAt);
    }
    return claimRefusal(applied.refusal);
  }
  ctx.committed();
  return runAnswer(applied.state, tickId, decision, facts, limits, ctx.settings.reportMinutes);
}

function runAnswer(
  state: GoalState,
  tickId: string,
  decision: Decision | null,
  facts: RepoFacts,
  limits: SliceLimits,
  reportMinutes: number,
): AskResponse {
  const tick = state.ticks.find((t) => t.id === tickId);
  if (!tick) throw new Error(`the claim committed, but tick ${tickId} is not in the goal's state`);
  const instruction = decision?.agentInstruction ?? "";
  // A fresh nonce per brief: outside text in it cannot know, so cannot forge, its delimiters.
  const nonce = randomBytes(12).toString("hex");
  // At least the slice's wall time after the claim: its lease was granted that plus the report.
  const checkpointAt = new Date(tick.leaseExpiresAt.getTime() - reportMinutes * 60_000);
  const built = buildBrief(state, tick, {
    nonce,
    slice: { usd: limits.usd, checkpointAt },
    ...(instruction ? { agentInstruction: instruction } : {}),
  });
  return {
    run: true,
    route: decision?.route === "replan" ? "replan" : "run",
    reason: decision?.reason ?? built.brief.instruction,
    tickId,
    leaseToken: tick.leaseToken,
    leaseExpiresAt: tick.leaseExpiresAt,
    checkpointAt,
    todo: tick.todo,
    branch: todoBranch(state, tick.todo),
    harness: tick.harness,
    allowedTools: facts.config?.harness.allowedTools ?? [],
    validationCommand: state.goal.validationCommand ?? facts.config?.validationCommand ?? null,
    limits,
    brief: built.brief,
    briefText: built.text,
  };
}
