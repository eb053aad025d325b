import { decide } from "../decide.ts";
import { analyseFrontier } from "../frontier.ts";
import { isLeaseLive, runningTicks } from "../lease.ts";
import type { Decision } from "../schemas/decision.ts";
import { GoalStatus } from "../schemas/goal.ts";
import type { ClaimInput, LeaseInput, RenewLeaseInput } from "../schemas/inputs.ts";
import {
  ClaimInput as ClaimSchema,
  LeaseInput as LeaseSchema,
  RenewLeaseInput as RenewSchema,
} from "../schemas/inputs.ts";
import type { GoalState } from "../schemas/state.ts";
import type { RefusalCode, TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { notesForSlice } from "../slice-notes.ts";
import { compareTodos } from "../todo-order.ts";
import { commit } from "./commit.ts";
import { noticeSkippedHolds } from "./external-claims.ts";
import { interruptionOf } from "./interrupt-tick.ts";
import { appendTodo, begin, emit, isRefused, parseInput, refuse } from "./kit.ts";
import { abandonTick, expireDeadLeases, findLiveTick } from "./tick-ledger.ts";

const ANY_STATUS = GoalStatus.options;

function refusalFor(decision: Decision, leaseHeld: boolean): RefusalCode {
  if (leaseHeld) return "lease_held";
  switch (decision.route) {
    case "over_budget":
      return "over_budget";
    case "stopped":
    case "done":
      return "goal_inactive";
    default:
      return "invalid_state";
  }
}

export interface ClaimOutcome {
  /** decide()'s answer after dead leases were expired: tells a wait from a run. */
  decision: Decision | null;
  result: TransitionResult;
}

/**
 * Claims the todo decide() picks, under a lease. Dead leases are expired first, in the same
 * transition, so a crashed tick never holds the goal hostage past its expiry.
 */
export function claimNext(
  state: GoalState,
  input: ClaimInput,
  ctx: TransitionContext,
): ClaimOutcome {
  const parsed = parseInput(ClaimSchema, input);
  if (isRefused(parsed)) return { decision: null, result: parsed };
  const d = begin(state, ctx, { statuses: ANY_STATUS });
  if (isRefused(d)) return { decision: null, result: d };
  if (d.state.ticks.some((t) => t.id === parsed.tickId)) {
    return { decision: null, result: refuse("duplicate", `Tick ${parsed.tickId} already exists.`) };
  }
  const run = parsed.run;
  if (run && d.state.ticks.some((t) => t.run?.id === run.id && t.run.attempt === run.attempt)) {
    return {
      decision: null,
      result: refuse(
        "duplicate",
        `Workflow run ${run.id} attempt ${run.attempt} already claimed a tick; one claim per run attempt.`,
      ),
    };
  }
  // A claim alone leaves the status comment as the last result wrote it (it already says the
  // loop is working): the tick's result re-renders it, so a tick costs one status write. A
  // crashed tick expired here is news for people, so that one is shown at once.
  d.status = expireDeadLeases(d) > 0;
  const parallel = parsed.parallel;
  if (parallel !== undefined && parallel !== d.state.goal.parallel) {
    emit(d, "goal.parallel_changed", { before: d.state.goal.parallel, after: parallel });
    d.state.goal.parallel = parallel;
  }
  const decideOpts = {
    ...(parsed.allowance ? { allowance: parsed.allowance } : {}),
    ...(parsed.callerLimits ? { callerLimits: parsed.callerLimits } : {}),
  };
  const decision = decide(d.state, ctx.now, parsed.agent, decideOpts);
  if (decision.route === "replan" && decision.todo === null && parsed.todo === undefined) {
    // A replan is a slice of its own, on a planning todo everyone can see in the checklist.
    const plan = appendTodo(d, {
      title: planTitle(decision.reason),
      kind: "plan",
      origin: "agent",
      position: d.state.todos.reduce((m, t) => Math.min(m, t.position), 1) - 1,
    });
    decision.todo = plan.key;
  }
  if (decision.route === "replan") d.state.goal.replanRequested = false;
  const claimable = decision.route === "run" || decision.route === "replan";
  if (!claimable || decision.todo === null) {
    const leaseHeld = d.state.todos.some((t) => isLeaseLive(t.claim, ctx.now));
    return { decision, result: refuse(refusalFor(decision, leaseHeld), decision.reason) };
  }
  if (parsed.todo !== undefined && parsed.todo !== decision.todo) {
    return {
      decision,
      result: refuse(
        "invalid_state",
        `${parsed.todo} cannot be claimed now: ${decision.todo} comes first (${decision.reason})`,
      ),
    };
  }
  // One live tick per slot: the slot is the workflow concurrency group, so a second claim from
  // one slot is a re-run or a replay, never a tick GitHub would let run beside the first.
  // A tick holds its slot while its todo's claim is live (an interrupted tick has let go).
  const sameSlot = runningTicks(d.state, ctx.now).find((t) => t.slot === parsed.slot);
  if (sameSlot) {
    const which = parsed.slot === "" ? "The goal's slot" : `Slot ${parsed.slot}`;
    const reason = `${which} is running tick #${sameSlot.number} on ${sameSlot.todo} under a lease until ${sameSlot.leaseExpiresAt.toISOString()}.`;
    const wait: Decision = {
      ...decision,
      route: "wait",
      todo: sameSlot.todo,
      reason,
      agentInstruction: "",
      nextWakeAt: sameSlot.leaseExpiresAt,
    };
    return { decision: wait, result: refuse("lease_held", reason) };
  }
  const todo = d.state.todos.find((t) => t.key === decision.todo);
  if (!todo) return { decision, result: refuse("not_found", `There is no todo ${decision.todo}.`) };
  const leaseExpiresAt = new Date(ctx.now.getTime() + parsed.leaseTtlMs);
  const number = d.state.goal.counters.tick;
  d.state.goal.counters.tick += 1;
  todo.claim = { tickId: parsed.tickId, agent: parsed.agent, leaseExpiresAt };
  // Everyone sees on the checklist which tick works the todo and until when.
  d.checklist = true;
  todo.attempts += 1;
  todo.updatedAt = ctx.now;
  d.state.ticks.push({
    id: parsed.tickId,
    number,
    todo: todo.key,
    agent: parsed.agent,
    harness: parsed.harness,
    run: parsed.run,
    slot: parsed.slot,
    leaseToken: parsed.leaseToken,
    leaseExpiresAt,
    startedAt: ctx.now,
    finishedAt: null,
    outcome: null,
    failure: null,
    cost: null,
    slotSpent: false,
    sessionId: null,
  });
  if (d.state.todos.some((t) => t.heldBy !== null)) {
    const skipped = analyseFrontier(d.state, ctx.now).heldByOthers.filter(
      (t) => compareTodos(t, todo) < 0,
    );
    noticeSkippedHolds(d, skipped, todo.key);
  }
  // Notes waiting in the inbox ride along with this tick's brief, once.
  for (const note of notesForSlice(d.state.notes, null)) note.deliveredTo = parsed.tickId;
  emit(d, "todo.claimed", {
    todo: todo.key,
    tickId: parsed.tickId,
    number,
    agent: parsed.agent,
    leaseExpiresAt,
  });
  return { decision, result: commit(d, { decide: decideOpts }) };
}

function planTitle(reason: string): string {
  const title = reason.replace(/\.$/, "");
  return title.length <= 256 ? title : `${title.slice(0, 255)}…`;
}

export function claimTodo(
  state: GoalState,
  input: ClaimInput,
  ctx: TransitionContext,
): TransitionResult {
  return claimNext(state, input, ctx).result;
}

export function renewLease(
  state: GoalState,
  input: RenewLeaseInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(RenewSchema, input);
  if (isRefused(parsed)) return parsed;
  const d = begin(state, ctx, { statuses: ANY_STATUS });
  if (isRefused(d)) return d;
  const tick = findLiveTick(d, parsed.tickId, parsed.leaseToken);
  if (isRefused(tick)) return tick;
  const interrupted = interruptionOf(tick);
  if (interrupted) {
    return refuse(
      "goal_inactive",
      `Tick #${tick.number}'s lease ended when the goal was ${interrupted}: stop the slice and report what it measured.`,
    );
  }
  const proposed = ctx.now.getTime() + parsed.leaseTtlMs;
  const leaseExpiresAt = new Date(Math.max(proposed, tick.leaseExpiresAt.getTime()));
  tick.leaseExpiresAt = leaseExpiresAt;
  const todo = d.state.todos.find((t) => t.claim?.tickId === tick.id);
  if (todo?.claim) todo.claim.leaseExpiresAt = leaseExpiresAt;
  d.status = false;
  emit(d, "lease.renewed", { tickId: tick.id, todo: tick.todo, leaseExpiresAt });
  return commit(d);
}

/** The tick gives up without a result: it is charged at its cap, like a crash. */
export function releaseLease(
  state: GoalState,
  input: LeaseInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(LeaseSchema, input);
  if (isRefused(parsed)) return parsed;
  const d = begin(state, ctx, { statuses: ANY_STATUS });
  if (isRefused(d)) return d;
  const tick = findLiveTick(d, parsed.tickId, parsed.leaseToken);
  if (isRefused(tick)) return tick;
  emit(d, "lease.released", { tickId: tick.id, todo: tick.todo });
  abandonTick(
    d,
    tick,
    "host_failure",
    `tick #${tick.number} on ${tick.todo} gave up without a result`,
  );
  return commit(d);
}

export function expireLeases(state: GoalState, ctx: TransitionContext): TransitionResult {
  const d = begin(state, ctx, { statuses: ANY_STATUS });
  if (isRefused(d)) return d;
  if (expireDeadLeases(d) === 0) {
    return refuse("not_found", `No lease has expired at ${ctx.now.toISOString()}; nothing to do.`);
  }
  return commit(d);
}
