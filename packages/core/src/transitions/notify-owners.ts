import { STALLED_TICKS_ASK_HUMAN } from "../backoff.ts";
import { costLeft, exhaustedDimensions } from "../cost-ledger.ts";
import type { GoalState } from "../schemas/state.ts";
import type { Occasion } from "../schemas/transition.ts";
import { isAwaitingEvidence } from "./await-pull-request.ts";
import { addEffect, type Draft } from "./kit.ts";

/**
 * The one way LoopX tells people it needs them: a notification now and one reminder later,
 * both keyed by the occasion, so a retry, a duplicate delivery or a restart tells nobody twice.
 * Whatever needs a person next (repair escalation, digests) calls this with an occasion of its own.
 */
export function notifyOwners(
  d: Draft,
  occasion: Omit<Occasion, "at" | "gate" | "todo"> & { gate?: string; todo?: string },
  opts: { remind?: boolean } = {},
): void {
  const told: Occasion = { gate: null, todo: null, ...occasion, at: d.ctx.now };
  addEffect(d, { kind: "notify", key: `notify:${told.key}`, occasion: told, reminder: false });
  if (opts.remind === false) return;
  addEffect(d, {
    kind: "notify",
    key: `notify:${told.key}:remind`,
    occasion: told,
    reminder: true,
  });
}

/** Whether the occasion still waits for a person: a reminder about a settled one is not sent. */
export function occasionWaits(state: GoalState, occasion: Occasion): boolean {
  const goal = state.goal;
  switch (occasion.kind) {
    case "gate_opened": {
      const gate = state.gates.find((g) => g.key === occasion.gate);
      return goal.status !== "done" && gate?.status === "open";
    }
    case "stall":
      return goal.status === "active" && goal.backoff.stalledTicks >= STALLED_TICKS_ASK_HUMAN;
    case "budget_exhausted":
      return goal.status === "active" && exhaustedDimensions(costLeft(goal)).length > 0;
    case "config_invalid":
      return goal.status === "paused" && goal.statusReason.startsWith(occasion.text);
    case "checks_unavailable":
      return goal.status !== "done";
    case "evidence_awaited": {
      const todo = state.todos.find((t) => t.key === occasion.todo);
      return goal.status === "active" && todo !== undefined && isAwaitingEvidence(todo);
    }
    case "digest":
      // A digest of a goal that ended or paused meanwhile would report a state that is gone.
      return goal.status === "active";
  }
}
