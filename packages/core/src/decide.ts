import { STALLED_TICKS_ASK_HUMAN, STALLED_TICKS_REPLAN, stallWords } from "./backoff.ts";
import { earliest, heldByText, heldUntil } from "./claims.ts";
import { costLeft, exhaustedDimensions, roomBeside } from "./cost-ledger.ts";
import type { Frontier } from "./frontier.ts";
import { analyseFrontier } from "./frontier.ts";
import { isLeaseLive } from "./lease.ts";
import { openPlanGate, planGateHolds } from "./plan-holds.ts";
import type { CostLimits, SharedAllowance } from "./schemas/budget.ts";
import type { Decision, Route } from "./schemas/decision.ts";
import type { Gate } from "./schemas/gate.ts";
import type { GoalState } from "./schemas/state.ts";
import type { Todo } from "./schemas/todo.ts";
import { blockingGatesFor } from "./scope.ts";
import { slotUsage } from "./slot-quota.ts";
import { stateWordsOf } from "./state-words.ts";
import { todosOverlap } from "./todo-overlap.ts";

export interface DecideOptions {
  /** What the repository and installation have left (the store computes it). */
  allowance?: SharedAllowance;
  /** Limits the caller asks for; they can only lower what is left, never raise it. */
  callerLimits?: CostLimits;
}

const iso = (d: Date) => d.toISOString();

function make(
  route: Route,
  fields: Partial<Omit<Decision, "route" | "reason">> & { reason: string },
): Decision {
  return {
    route,
    todo: fields.todo ?? null,
    gates: fields.gates ?? [],
    reason: fields.reason,
    userInstruction: fields.userInstruction ?? "",
    agentInstruction: fields.agentInstruction ?? "",
    nextWakeAt: fields.nextWakeAt ?? null,
  };
}

function approveInstruction(gate: Gate): string {
  const command = `\`/loopx approve ${gate.key}\``;
  const allow = gate.scopes.join(", ");
  return gate.pr
    ? `Approve PR #${gate.pr.number} at ${gate.pr.headSha.slice(0, 7)} or comment ${command} to allow ${allow}`
    : `Comment ${command} to allow ${allow}`;
}

/**
 * What happens next for a goal, decided from its state and one clock — no model call.
 * Precedence: stopped/paused/done → blocking gate → leased elsewhere → (for work that would
 * spend a tick) over budget → backoff window → runnable todo → replan → done → wait.
 * With `parallel` above 1, a goal with live leases may still run a task todo beside them, if
 * its declared paths and scopes overlap none of theirs; anything else waits for the leases.
 */
export function decide(
  state: GoalState,
  now: Date,
  agent: string,
  opts: DecideOptions = {},
): Decision {
  const { goal } = state;
  const openGates = state.gates.filter((g) => g.status === "open").map((g) => g.key);
  const why = goal.statusReason ? ` (${goal.statusReason})` : "";

  if (goal.status === "stopped") {
    return make("stopped", {
      reason: `The goal is stopped${why}.`,
      userInstruction: "Comment `/loopx resume` to start it again.",
      gates: openGates,
    });
  }
  if (goal.status === "paused") {
    return make("stopped", {
      reason: `The goal is paused${why}.`,
      userInstruction: "Comment `/loopx resume` to let it run again.",
      gates: openGates,
    });
  }
  if (goal.status === "done") {
    return make("done", { reason: "The goal is done." });
  }

  const frontier = analyseFrontier(state, now);

  if (frontier.candidates.length > 0 && frontier.runnable.length === 0) {
    return askForGates(state, frontier);
  }

  const running = frontier.leased.length;
  const leasedTodo = frontier.leased[0];
  const leaseWait = leasedTodo ? waitForLease(leasedTodo, frontier, agent, openGates) : null;
  let work: Decision;
  if (leaseWait) {
    const beside = runnableBeside(goal.parallel, frontier, now);
    if (beside.length === 0) return leaseWait;
    work = pickWork(state, { ...frontier, runnable: beside }, now, openGates);
    // Replanning or asking a person rewrites what the running ticks work from: not beside them.
    if (work.route !== "run") return leaseWait;
  } else {
    work = pickWork(state, frontier, now, openGates);
    if (work.route !== "run" && work.route !== "replan") return work;
  }

  const left = costLeft(goal, opts.allowance, opts.callerLimits);
  const exhausted = exhaustedDimensions(left);
  if (exhausted.length > 0) {
    const parts = exhausted.map((d) => {
      const limit = goal.budget[d];
      return limit !== undefined
        ? `${d} (spent ${goal.spent[d]} of ${limit})`
        : `${d} (shared allowance)`;
    });
    return make("over_budget", {
      gates: openGates,
      // Paused, not stopped: the goal keeps its todos, branches and handoff for when it resumes.
      reason: `Paused: budget reached. The cost budget is used up: ${parts.join(", ")}.`,
      userInstruction: `An owner can raise it with \`/loopx budget ${exhausted[0]}=<amount>\` (up to the ceiling in .github/loopx.yml).`,
    });
  }

  // Running ticks have not been charged yet: a tick beside them must fit with all their caps.
  if (leaseWait && !roomBeside(left, running, goal.tickCap)) return leaseWait;

  const slots = slotUsage(goal.quota, state.ticks, now);
  if (slots.allowed === 0) {
    return make("over_budget", {
      gates: openGates,
      reason: "The slot quota allows no ticks (compute is 0): the goal is on a hard pause.",
      userInstruction: "Raise `quota.compute` above 0 in .github/loopx.yml to let it run.",
    });
  }
  // A running tick may yet spend a slot: one beside it must leave that slot free.
  if (leaseWait && slots.spent + running >= slots.allowed) return leaseWait;
  if (slots.spent >= slots.allowed) {
    return make("over_budget", {
      gates: openGates,
      reason: `All ${slots.allowed} slots of the ${goal.quota.windowHours}h window are spent; the next frees at ${iso(slots.nextFreeAt ?? now)}.`,
      nextWakeAt: slots.nextFreeAt,
    });
  }

  const until = goal.backoff.until;
  if (leaseWait && until !== null && until.getTime() > now.getTime()) return leaseWait;
  if (until !== null && until.getTime() > now.getTime()) {
    return make("wait", {
      gates: openGates,
      todo: work.todo,
      reason: `Backing off after ${goal.backoff.stalledTicks} tick(s) without a material change; next try at ${iso(until)}.`,
      userInstruction: "A comment with guidance, a new todo or new evidence lets it try again now.",
      nextWakeAt: until,
    });
  }
  return work;
}

function waitForLease(
  leasedTodo: Todo,
  frontier: Frontier,
  agent: string,
  openGates: string[],
): Decision | null {
  const lease = leasedTodo.claim;
  if (!lease) return null;
  const mine = lease.agent === agent ? " (this agent, another tick)" : "";
  const others = frontier.leased.length - 1;
  const more = others > 0 ? ` (and ${others} other running todo${others === 1 ? "" : "s"})` : "";
  return make("wait", {
    todo: leasedTodo.key,
    gates: openGates,
    reason: `${leasedTodo.key} is being worked on by ${lease.agent}${mine} under a lease until ${iso(lease.leaseExpiresAt)}${more}.`,
    nextWakeAt: lease.leaseExpiresAt,
  });
}

/** Runnable task todos that may run beside the live leases: none once `parallel` are running. */
function runnableBeside(parallel: number, frontier: Frontier, now: Date): Todo[] {
  if (frontier.leased.length >= parallel) return [];
  return frontier.runnable.filter(
    (t) =>
      t.kind !== "plan" &&
      !isLeaseLive(t.claim, now) &&
      frontier.leased.every((l) => !todosOverlap(t, l)),
  );
}

function askForGates(state: GoalState, frontier: Frontier): Decision {
  const keys: string[] = [];
  for (const todo of frontier.blocked) {
    for (const k of blockingGatesFor(frontier.scopes, todo.requiredScopes)) {
      if (!keys.includes(k)) keys.push(k);
    }
  }
  const gates = state.gates.filter((g) => keys.includes(g.key));
  const open = gates.filter((g) => g.status === "open");
  const rejected = gates.filter((g) => g.status === "rejected");
  const todos = frontier.blocked.map((t) => t.key).join(", ");
  if (open.length > 0) {
    return make("ask_human", {
      gates: open.map((g) => g.key),
      reason: `Every runnable todo (${todos}) needs a decision: ${open.map((g) => `${g.key} "${g.question}"`).join("; ")}.`,
      userInstruction: `${open.map(approveInstruction).join("; ")}.`,
    });
  }
  return make("ask_human", {
    gates: rejected.map((g) => g.key),
    reason: `Every runnable todo (${todos}) needs authority that was refused (${rejected.map((g) => g.key).join(", ")}).`,
    userInstruction: `Drop the todo with \`/loopx todo drop ${frontier.blocked[0]?.key ?? "T#"}\`, ask for a replan with \`/loopx replan\`, or approve a new gate.`,
  });
}

const PLAN_INSTRUCTION =
  "Plan, do not code: review the objective, todos, evidence and handoffs, the deadline and the money left; put the next todos in proposedTodos (at least one, each with the scopes it needs; the same title as an open todo is that todo), ask for any authority you lack in gateRequests, and write a short handoff. A plan with no proposed todo is a stall.";

/**
 * Stall → replan → runnable todo → done → wait, before budgets and backoff are applied.
 * A requested replan comes before runnable work: retrying a stalled todo unchanged is how
 * loops spin. If replanning has not helped either, a person is asked.
 */
function pickWork(state: GoalState, frontier: Frontier, now: Date, openGates: string[]): Decision {
  const { goal } = state;
  const stalled = goal.backoff.stalledTicks;
  if (stalled >= STALLED_TICKS_ASK_HUMAN) {
    return make("ask_human", {
      gates: openGates,
      reason: `${stallWords(goal.backoff)}.`,
      userInstruction:
        "Leave a comment with guidance, add a todo with `/loopx todo add <text>`, or `/loopx stop`.",
    });
  }
  const next = frontier.runnable[0];
  if (next?.kind === "plan") {
    return make("replan", {
      todo: next.key,
      gates: openGates,
      reason: `Replan: ${next.key} "${next.title}" is waiting for a planning slice.`,
      agentInstruction: PLAN_INSTRUCTION,
      nextWakeAt: now,
    });
  }
  const frontierEmpty = frontier.open.length === 0;
  const replanWhy = goal.replanRequested
    ? stalled >= STALLED_TICKS_REPLAN
      ? `${stalled} ticks in a row made no material change`
      : "a replan was requested"
    : state.todos.length === 0
      ? "the goal has no todos yet"
      : frontierEmpty && next === undefined && frontier.lastContinuation?.kind === "goal_active"
        ? "every todo is finished but the last completion said the goal is still active"
        : null;
  if (replanWhy !== null) {
    return make("replan", {
      gates: openGates,
      reason: `Replan: ${replanWhy}.`,
      agentInstruction: PLAN_INSTRUCTION,
      nextWakeAt: now,
    });
  }
  if (next) {
    const validate = goal.validationCommand
      ? ` Run \`${goal.validationCommand}\` before reporting.`
      : "";
    return make("run", {
      todo: next.key,
      gates: openGates,
      reason: `${next.key} (${next.kind}) is the highest-priority runnable todo.`,
      // The todo's own text is not repeated here: it may be data (briefs say whose it is).
      agentInstruction: `Work one bounded slice on ${next.key}.${validate} Report evidence and a handoff; complete it only with evidence and one continuation.`,
      nextWakeAt: now,
    });
  }

  const plan = openPlanGate(state);
  if (plan) {
    return make("ask_human", {
      gates: openGates,
      reason: `The agent's plan waits for a writer: ${plan.key} holds ${planGateHolds(plan)?.join(", ")} as proposed.`,
      userInstruction: `Comment \`/loopx approve ${plan.key}\` to let the plan run, or \`/loopx reject ${plan.key} <reason>\` to drop it.`,
    });
  }

  const openPrs = state.pullRequests.filter((p) => p.state === "open").map((p) => `#${p.number}`);
  if (frontierEmpty && openPrs.length === 0) {
    return make("done", {
      reason: "Every todo is finished with no follow-up, and no linked pull request is open.",
    });
  }

  const waits: string[] = [];
  if (openPrs.length > 0) waits.push(`pull request ${openPrs.join(", ")} to merge or close`);
  const people = frontier.open.filter((t) => t.kind === "user_action");
  if (people.length > 0) waits.push(`people to finish ${people.map((t) => t.key).join(", ")}`);
  const parked = frontier.open.filter((t) => t.status === "blocked" || t.status === "deferred");
  const words = stateWordsOf(state, now);
  for (const t of parked) waits.push(`${t.key} (${words(t)})`);
  for (const w of frontier.waitingOnPulls) {
    const work = w.pr === null ? `${w.on}'s pull request` : `#${w.pr}`;
    waits.push(`${w.todo.key} until ${work} merges (it changed a file ${w.todo.key} declares)`);
  }
  if (frontier.heldByOthers.length > 0) {
    const held = frontier.heldByOthers.map((t) => `${t.key} (${heldByText(t)})`).join(", ");
    waits.push(`${held} to be released by whoever holds them`);
  }
  const unfinished = new Set(frontier.open.map((t) => t.key));
  const after = frontier.open.flatMap((t) =>
    t.status === "ready" && t.resumeWhen?.kind === "todo_done" && unfinished.has(t.resumeWhen.todo)
      ? [`${t.key} until ${t.resumeWhen.todo}, which it builds on, is done`]
      : [],
  );
  if (after.length > 0) waits.push(after.join(", "));
  if (frontier.resumeAt !== null) waits.push(`a todo's resume time ${iso(frontier.resumeAt)}`);
  const jobs = frontier.open.flatMap((t) =>
    t.resumeWhen?.kind === "job" ? [`${t.key}'s job ${t.resumeWhen.job} to finish`] : [],
  );
  if (jobs.length > 0) waits.push(jobs.join(", "));
  if (frontier.open.some((t) => t.kind === "monitor")) waits.push("monitors to report a change");
  return make("wait", {
    gates: openGates,
    reason: `Nothing to run now; waiting for ${waits.length > 0 ? waits.join("; ") : "an event"}.`,
    userInstruction:
      people.length > 0 ? `Finish ${people.map((t) => `${t.key} "${t.title}"`).join(", ")}.` : "",
    nextWakeAt: earliest(frontier.resumeAt, heldUntil(frontier.heldByOthers)),
  });
}
