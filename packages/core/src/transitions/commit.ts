import { checkRunsSignature } from "../check-runs.ts";
import type { DecideOptions } from "../decide.ts";
import { decide } from "../decide.ts";
import { tallyOutcomes } from "../outcomes.ts";
import type { Effect, TransitionResult } from "../schemas/transition.ts";
import { actorName, addEffect, type Draft, doneTodos, emit } from "./kit.ts";
import { syncPlanGate } from "./plan-gate.ts";

export interface CommitOptions {
  decide?: DecideOptions;
  /**
   * Bookkeeping that changes nothing the loop runs on nor any progress (a digest's look): it
   * does not dispatch a due goal behind the scheduler's back, nor count as the goal's last
   * update (lists order goals by it).
   */
  bookkeeping?: boolean;
  /**
   * A push report follows this transition (a slice's result with commits): that report
   * dispatches the next tick, once what the push changed is known.
   */
  pushFollows?: boolean;
}

/**
 * Seals a transition: one version bump, derived completion, the next wake, and the
 * projection effects. Completion is derived here so no transition can forget it.
 */
export function commit(d: Draft, opts: CommitOptions = {}): TransitionResult {
  const { ctx } = d;
  const goal = d.state.goal;
  goal.version += 1;
  if (!opts.bookkeeping) goal.updatedAt = ctx.now;
  syncPlanGate(d);

  let decision = decide(d.state, ctx.now, actorName(ctx.actor), opts.decide);
  if (goal.status === "active" && decision.route === "done") {
    goal.status = "done";
    goal.statusReason = decision.reason;
    emit(d, "goal.done", { reason: decision.reason });
    addEffect(d, { kind: "close_issue", key: "close_issue" });
    d.status = true;
    decision = decide(d.state, ctx.now, actorName(ctx.actor), opts.decide);
  }
  goal.outcomes = tallyOutcomes(goal.outcomes, {
    doneBefore: d.doneBefore ?? doneTodos(d.state),
    doneAfter: doneTodos(d.state),
    events: d.events,
    gates: d.state.gates,
    ctx,
  });
  goal.nextWakeAt = decision.nextWakeAt;
  if (
    !opts.bookkeeping &&
    !opts.pushFollows &&
    (decision.route === "run" || decision.route === "replan") &&
    decision.nextWakeAt !== null &&
    decision.nextWakeAt.getTime() <= ctx.now.getTime() &&
    !d.effects.some((e) => e.kind === "dispatch")
  ) {
    // A person's act (an approval, a resume, a new todo) always wakes the loop. Machine-side
    // transitions between two ticks (the push, the PR link) share one wake, so the outbox
    // sends one dispatch for them, not one each; a result whose push follows leaves it to the
    // push, which knows what the commits changed.
    const human = ctx.actor.kind === "human";
    addEffect(d, {
      kind: "dispatch",
      key: human ? `dispatch:v${goal.version}` : `dispatch:t${goal.counters.tick}`,
      reason: decision.reason.slice(0, 200),
      at: ctx.now,
    });
  }
  const projections: Effect[] = [];
  if (d.checklist) projections.push({ kind: "body", key: "body" });
  if (d.status) projections.push({ kind: "status", key: "status" });
  const checks = checkRunsSignature(d.state, ctx.now);
  if (checks !== (d.checksBefore ?? "[]") && !d.effects.some((e) => e.kind === "check_runs"))
    projections.push({ kind: "check_runs", key: "check_runs" });
  return {
    ok: true,
    state: d.state,
    events: d.events,
    effects: [...projections, ...d.effects],
    ...(d.unresolved?.length ? { unresolved: d.unresolved } : {}),
  };
}
