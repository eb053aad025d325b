import { addCost, costLeft, exhaustedDimensions, sliceCeiling } from "../cost-ledger.ts";
import type { Cost } from "../schemas/budget.ts";
import type { FailureKind, Tick, TickOutcome } from "../schemas/tick.ts";
import type { Draft, Refused } from "./kit.ts";
import { appendEvidence, emit, refuse } from "./kit.ts";
import { notifyOwners } from "./notify-owners.ts";
import { stall } from "./stall.ts";

/**
 * Finds the tick a lease token speaks for, refusing anything that is not a live, unfinished
 * lease at the transition's clock (a late result after expiry is refused, never merged).
 */
export function findLiveTick(d: Draft, tickId: string, leaseToken: string): Tick | Refused {
  const tick = d.state.ticks.find((t) => t.id === tickId);
  if (!tick) return refuse("not_found", `There is no tick ${tickId} on this goal.`);
  if (tick.leaseToken !== leaseToken) {
    return refuse("lease_not_held", `The lease token does not match tick #${tick.number}'s lease.`);
  }
  if (tick.finishedAt !== null) {
    if (tick.failure === "lease_expired") {
      return refuse(
        "lease_expired",
        `Tick #${tick.number}'s lease expired at ${tick.leaseExpiresAt.toISOString()} and it was charged at its cap; a late result is not applied.`,
      );
    }
    return refuse(
      "duplicate",
      `Tick #${tick.number} already finished (${tick.outcome}); its result was recorded once.`,
    );
  }
  if (tick.leaseExpiresAt.getTime() <= d.ctx.now.getTime()) {
    return refuse(
      "lease_expired",
      `Tick #${tick.number}'s lease expired at ${tick.leaseExpiresAt.toISOString()}; a late result is not applied. Renew the lease before it runs out.`,
    );
  }
  return tick;
}

/** Charges a tick to the cost ledger — the one place that does, so it happens exactly once. */
export function finishTick(
  d: Draft,
  tick: Tick,
  outcome: TickOutcome,
  failure: Tick["failure"],
  cost: Cost,
): void {
  if (tick.finishedAt !== null) return;
  const charged: Cost = {
    usd: Math.max(0, cost.usd),
    tokens: Math.max(0, cost.tokens),
    runnerMinutes: Math.max(0, cost.runnerMinutes),
  };
  tick.finishedAt = d.ctx.now;
  tick.outcome = outcome;
  tick.failure = failure;
  tick.cost = charged;
  const goal = d.state.goal;
  const hadBudget = exhaustedDimensions(costLeft(goal)).length === 0;
  goal.spent = addCost(goal.spent, charged);
  const used = exhaustedDimensions(costLeft(goal));
  if (hadBudget && used.length > 0) {
    notifyOwners(d, {
      kind: "budget_exhausted",
      key: `budget:t${tick.number}`,
      text: `The goal's cost budget is used up (${used.map((dim) => `${dim}: spent ${goal.spent[dim]} of ${goal.budget[dim]}`).join(", ")}); no tick runs until an owner raises it with \`/loopx budget ${used[0]}=<amount>\`.`,
    });
  }
  const todo = d.state.todos.find((t) => t.key === tick.todo);
  if (todo?.claim?.tickId === tick.id) {
    todo.claim = null;
    // The checklist showed this tick working the todo: it must stop saying so.
    d.checklist = true;
  }
  emit(d, "tick.finished", {
    tickId: tick.id,
    number: tick.number,
    todo: tick.todo,
    outcome,
    failure,
  });
  emit(d, "cost.charged", { tickId: tick.id, ...charged });
}

/**
 * A tick that ended without a result (expired or gave up) is charged its cap, leaves
 * host_failure evidence so the stall is visible, and counts as a stalled tick.
 */
export function abandonTick(
  d: Draft,
  tick: Tick,
  failure: FailureKind,
  summary: string,
  since: Date = d.ctx.now,
): void {
  appendEvidence(d, { kind: "host_failure", summary, todo: tick.todo, tickId: tick.id });
  finishTick(d, tick, "failed", failure, sliceCeiling(d.state.goal));
  stall(d, summary, since);
}

/** Ends every unfinished tick whose lease is past at the transition's clock. Returns how many. */
export function expireDeadLeases(d: Draft): number {
  const now = d.ctx.now.getTime();
  let n = 0;
  for (const tick of d.state.ticks) {
    if (tick.finishedAt !== null || tick.leaseExpiresAt.getTime() > now) continue;
    emit(d, "lease.expired", { tickId: tick.id, todo: tick.todo, expiredAt: tick.leaseExpiresAt });
    abandonTick(
      d,
      tick,
      "lease_expired",
      `tick #${tick.number} on ${tick.todo} stopped reporting; its lease expired at ${tick.leaseExpiresAt.toISOString()}`,
      // Dated from the expiry, so the wait is the same whenever the expiry is noticed.
      tick.leaseExpiresAt,
    );
    n += 1;
  }
  // Claims with no unfinished tick behind them cannot be live work; clear them too.
  for (const todo of d.state.todos) {
    if (todo.claim && todo.claim.leaseExpiresAt.getTime() <= now) {
      todo.claim = null;
      n += 1;
    }
  }
  return n;
}
