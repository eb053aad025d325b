import { claimOfTodo } from "./claims.ts";
import { openPlanGate } from "./plan-holds.ts";
import { minuteUtc } from "./receipt-words.ts";
import type { Decision } from "./schemas/decision.ts";
import type { GoalState } from "./schemas/state.ts";
import type { Todo } from "./schemas/todo.ts";
import { blockingGatesFor, buildScopeIndex } from "./scope.ts";
import {
  isAwaitingEvidence,
  isAwaitingPersonPush,
  isAwaitingPullRequest,
} from "./transitions/await-pull-request.ts";

/**
 * A todo's state as a person says it: what it waits for and on whom, not the status column
 * it sits in. Every surface (checklist, tick and status comments, dashboard, CLI) shows these
 * words, so a todo reads the same wherever it is seen.
 */
export function todoStateWords(state: GoalState, todo: Todo, now: Date): string {
  return stateWordsOf(state, now)(todo);
}

/**
 * `todoStateWords` for many todos of one state: the goal's scope index, open pull requests
 * and plan gate are read once, so a page of thousands of todos is not todos × gates.
 */
export function stateWordsOf(state: GoalState, now: Date): (todo: Todo) => string {
  const scopes = buildScopeIndex(state.gates, state.goal.grantedScopes);
  const openPr = new Map<string, number>();
  for (const p of state.pullRequests) {
    if (p.state === "open" && p.todo !== null && !openPr.has(p.todo)) openPr.set(p.todo, p.number);
  }
  let plan: { key: string } | null | undefined;
  return (todo) => {
    switch (todo.status) {
      case "done":
        return "done";
      case "dropped":
        return "dropped";
      case "proposed": {
        if (plan === undefined) plan = openPlanGate(state) ?? null;
        return plan
          ? `proposed: waiting for ${decider(state)} decision on ${plan.key}`
          : "proposed: waiting for a writer to accept it";
      }
      default:
        break;
    }
    if (isAwaitingPullRequest(todo)) return awaitingMergeWords(openPr.get(todo.key) ?? null);
    if (isAwaitingEvidence(todo)) return "claimed, awaiting evidence";
    if (isAwaitingPersonPush(todo)) return "waiting for a writer to push its patch to its branch";
    const claim = claimOfTodo(state, todo, now);
    if (claim?.kind === "lease") {
      return claim.tickNumber === null ? "running" : `running (tick #${claim.tickNumber})`;
    }
    if (claim?.kind === "external") return `held by ${claim.holder.replace(/^@/, "")}`;
    const gates = blockingGatesFor(scopes, todo.requiredScopes);
    if (gates.length > 0) return `waiting for ${decider(state)} decision on ${gates.join(", ")}`;
    const waits = waitingOn(todo);
    if (waits !== null) return waits;
    if (todo.status === "blocked") {
      return todo.blockedReason ? `blocked: ${todo.blockedReason}` : "blocked";
    }
    if (todo.status === "deferred") return "deferred";
    if (todo.kind === "user_action") return "waiting for a person to do it";
    return "ready to run";
  };
}

/** A todo finished on its branch: it waits for its pull request, named when it is known. */
export function awaitingMergeWords(pr: number | null): string {
  return pr === null ? "waiting for its pull request to merge" : `waiting for #${pr} to merge`;
}

/** What a todo's resume condition waits for, in words. */
function waitingOn(todo: Todo): string | null {
  const r = todo.resumeWhen;
  if (r === null) return null;
  if (r.kind === "todo_done") return `waiting for ${r.todo} to be done`;
  if (r.kind === "pr_merged") return `waiting for #${r.pr} to merge`;
  if (r.kind === "job") return `waiting for its ${r.job} job (${r.workflow}) to finish`;
  return `waiting until ${minuteUtc(r.at)}`;
}

/** Whose decision a gate waits for: the goal's owner (no @, so no one is pinged). */
function decider(state: GoalState): string {
  const owner = state.goal.owners[0];
  return owner ? `${owner}'s` : "a writer's";
}

/**
 * The goal's state as a person says it, from its status and the kernel's decision: "paused:
 * budget reached", "waiting for alice's decision on G1", "running (tick #3)", "done".
 */
export function goalStateWords(state: GoalState, decision: Decision, now: Date): string {
  const { goal } = state;
  const reason = goal.statusReason.trim().replace(/\.$/, "");
  if (goal.status === "done") return "done";
  if (goal.status === "stopped") return reason ? `stopped: ${reason}` : "stopped";
  if (goal.status === "paused") return reason ? `paused: ${reason}` : "paused";
  const running = state.todos
    .map((t) => claimOfTodo(state, t, now))
    .flatMap((c) => (c?.kind === "lease" && c.tickNumber !== null ? [c.tickNumber] : []));
  if (running.length > 0) return `running (${running.map((n) => `tick #${n}`).join(", ")})`;
  switch (decision.route) {
    case "over_budget":
      return "paused: budget reached";
    case "ask_human":
      return decision.gates.length > 0
        ? `waiting for ${decider(state)} decision on ${decision.gates.join(", ")}`
        : `waiting for ${decider(state)} answer`;
    case "run":
    case "replan":
      return "about to run";
    case "done":
      return "done";
    default:
      return waitingWords(state, now);
  }
}

/**
 * A goal with nothing to run waits on something one of its todos names ("waiting for #2 to
 * merge", "waiting for its long-tests job (e2e.yml) to finish"): the first open one that
 * says so, else plain "waiting".
 */
function waitingWords(state: GoalState, now: Date): string {
  const words = stateWordsOf(state, now);
  for (const todo of state.todos) {
    if (todo.status === "done" || todo.status === "dropped") continue;
    const w = words(todo);
    if (w.startsWith("waiting")) return w;
  }
  return "waiting";
}
