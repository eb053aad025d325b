import type { Gate } from "./schemas/gate.ts";
import type { Goal, Outcomes } from "./schemas/goal.ts";
import type { DomainEvent, TransitionContext } from "./schemas/transition.ts";

/**
 * When a gate's current question was put to people: a push reopens a PR-bound gate about the
 * new head, and the person is asked anew from the moment GitHub reported that head.
 */
function askedAt(gate: Gate): Date {
  const seen = gate.pr?.seenAt ?? null;
  return seen !== null && seen.getTime() > gate.openedAt.getTime() ? seen : gate.openedAt;
}

/**
 * The goal's running outcome totals after one accepted transition: todos that became done
 * (less any done todo reopened), merged PRs, one act for a transition a person with write
 * access made, and each gate a person decided with how long its question had waited.
 */
export function tallyOutcomes(
  before: Outcomes,
  change: {
    doneBefore: number;
    doneAfter: number;
    events: readonly DomainEvent[];
    gates: readonly Gate[];
    ctx: Pick<TransitionContext, "actor" | "now">;
  },
): Outcomes {
  const next = { ...before };
  next.todosDone = Math.max(0, next.todosDone + change.doneAfter - change.doneBefore);
  const { actor } = change.ctx;
  const person = actor.kind === "human" && actor.trusted;
  if (person && change.events.length > 0) next.personActs += 1;
  for (const ev of change.events) {
    if (ev.type === "pull_request.merged") next.prsMerged += 1;
    if (!person || (ev.type !== "gate.approved" && ev.type !== "gate.rejected")) continue;
    const gate = change.gates.find((g) => g.key === ev.data.gate);
    if (!gate) continue;
    next.decisions += 1;
    next.waitedMs += Math.max(0, change.ctx.now.getTime() - askedAt(gate).getTime());
  }
  return next;
}

export interface OutcomeAccounting {
  todosDone: number;
  prsMerged: number;
  usd: number;
  runnerMinutes: number;
  ticks: number;
  /** Null until there is something to divide by. */
  usdPerMergedPr: number | null;
  usdPerTodo: number | null;
  minutesPerTodo: number | null;
  personActs: number;
  decisions: number;
  /** Time gates waited on people: decided ones, plus those still open until `now`. */
  waitedMs: number;
  /** Gates waiting on a person now. */
  waiting: number;
}

const per = (total: number, count: number) => (count > 0 ? total / count : null);

/** What the goal delivered for what it cost, and what it took of people's time, as of `now`. */
export function outcomeAccounting(
  goal: Pick<Goal, "spent" | "outcomes">,
  gates: readonly Gate[],
  now: Date,
): OutcomeAccounting {
  const o = goal.outcomes;
  const open = gates.filter((g) => g.status === "open");
  const openMs = open.reduce((ms, g) => ms + Math.max(0, now.getTime() - askedAt(g).getTime()), 0);
  return {
    todosDone: o.todosDone,
    prsMerged: o.prsMerged,
    usd: goal.spent.usd,
    runnerMinutes: goal.spent.runnerMinutes,
    ticks: goal.spent.ticks,
    usdPerMergedPr: per(goal.spent.usd, o.prsMerged),
    usdPerTodo: per(goal.spent.usd, o.todosDone),
    minutesPerTodo: per(goal.spent.runnerMinutes, o.todosDone),
    personActs: o.personActs,
    decisions: o.decisions,
    waitedMs: o.waitedMs + openMs,
    waiting: open.length,
  };
}

/** "3 h 5 min", "12 min", "under a minute": how long, in words a person reads at a glance. */
export function durationWords(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "under a minute";
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const parts = [
    days > 0 ? `${days} d` : "",
    hours > 0 ? `${hours} h` : "",
    mins > 0 ? `${mins} min` : "",
  ];
  // Two units say enough: "2 d 3 h", not "2 d 3 h 41 min".
  return parts
    .filter((p) => p !== "")
    .slice(0, 2)
    .join(" ");
}

/** Dollars as every LoopX text shows them: "$4.50". */
export const usd = (n: number) => `$${n.toFixed(2)}`;
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The outcome in two lines, the same on every surface: what was delivered and at what cost
 * each, then what it asked of people and how long work waited on them.
 */
export function outcomeWords(a: OutcomeAccounting): { delivered: string; people: string } {
  const each = [
    a.usdPerMergedPr !== null ? `${usd(a.usdPerMergedPr)} per merged PR` : null,
    a.usdPerTodo !== null ? `${usd(a.usdPerTodo)} per done todo` : null,
  ].filter((x) => x !== null);
  const delivered = `${count(a.todosDone, "todo", "todos")} done, ${count(a.prsMerged, "PR", "PRs")} merged for ${usd(a.usd)}${each.length > 0 ? ` (${each.join(", ")})` : ""}.`;
  const waitingNow = a.waiting > 0 ? `, ${a.waiting} waiting now` : "";
  const waited =
    a.waitedMs === 0 && a.waiting === 0
      ? "no work waited on people"
      : `work waited on people ${durationWords(a.waitedMs)}${waitingNow}`;
  const people = `${count(a.personActs, "act", "acts")} by people, ${count(a.decisions, "decision", "decisions")} on gates; ${waited}.`;
  return { delivered, people };
}
