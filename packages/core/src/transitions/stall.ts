import {
  growBackoff,
  STALLED_TICKS_ASK_HUMAN,
  STALLED_TICKS_REPLAN,
  stallWords,
  triedStalls,
} from "../backoff.ts";
import { type Draft, emit } from "./kit.ts";
import { notifyOwners } from "./notify-owners.ts";

/**
 * One more stalled tick; `since` is when it stalled (a lease's expiry, not when we noticed).
 * A `hostFailure` (a run that never reached LoopX) backs off and counts toward asking a
 * person, but cannot ask for a replan: the plan was not tried.
 */
export function stall(
  d: Draft,
  reason: string,
  since: Date = d.ctx.now,
  o: { hostFailure?: boolean } = {},
): void {
  const next = growBackoff(d.state.goal.backoff, since, d.ctx.backoffLadderMinutes, o);
  d.state.goal.backoff = next;
  // Once per stall episode: retrying the same plan unchanged is how loops spin. Later
  // stalls do not ask again; if the new plan stalls too, decide() asks a person.
  if (
    !o.hostFailure &&
    triedStalls(next) === STALLED_TICKS_REPLAN &&
    !d.state.goal.replanRequested
  ) {
    d.state.goal.replanRequested = true;
    emit(d, "goal.replan_requested", { reason: `${triedStalls(next)} stalled ticks` });
  }
  if (next.stalledTicks === STALLED_TICKS_ASK_HUMAN) {
    notifyOwners(d, {
      kind: "stall",
      key: `stall:t${d.state.goal.counters.tick}`,
      text: `${stallWords(next)}. Leave a comment with guidance, add a todo with \`/loopx todo add <text>\`, or \`/loopx stop\`.`,
    });
  }
  emit(d, "backoff.grown", {
    reason,
    level: next.level,
    stalledTicks: next.stalledTicks,
    until: next.until,
  });
}
