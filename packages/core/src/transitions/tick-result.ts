import { sliceCeiling } from "../cost-ledger.ts";
import { commitSummary, testRunEvidence } from "../evidence-summary.ts";
import { openTodoNamed } from "../proposed-todos.ts";
import { reportedSummary } from "../pushed-commit.ts";
import type { Cost } from "../schemas/budget.ts";
import { GoalStatus } from "../schemas/goal.ts";
import type { TickResultInput } from "../schemas/inputs.ts";
import { TickResultInput as TickResultSchema } from "../schemas/inputs.ts";
import type { GoalState } from "../schemas/state.ts";
import type { ContinuationInput, HarnessResult } from "../schemas/tick.ts";
import type { Continuation, Todo } from "../schemas/todo.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { blockingGatesFor, buildScopeIndex } from "../scope.ts";
import { awaitEvidence, needsPullRequest } from "./await-pull-request.ts";
import { commit } from "./commit.ts";
import { completeTodo } from "./complete-todo.ts";
import { interruptionOf, settleInterrupted } from "./interrupt-tick.ts";
import type { Draft } from "./kit.ts";
import {
  actorName,
  addEffect,
  appendEvidence,
  appendTodo,
  begin,
  emit,
  isRefused,
  parseInput,
  refuse,
  resetBackoff,
} from "./kit.ts";
import { notifyOwners } from "./notify-owners.ts";
import { openGateIn } from "./open-gate.ts";
import { actOnWhatWasHeld } from "./own-todo-at-work.ts";
import { holdForApproval } from "./plan-gate.ts";
import { addProposals, applyPlan } from "./plan-result.ts";
import { stall } from "./stall.ts";
import { findLiveTick, finishTick } from "./tick-ledger.ts";

/**
 * Failures after which the reported cost cannot be trusted: the slice crashed, hung or was
 * killed before it could account for itself. They are charged at least the tick's cap, so
 * a goal whose every slice dies still reaches its budget instead of looping for free; so
 * are USD and tokens of an `unmetered` result, which only the agent could have counted.
 */
const UNACCOUNTED_FAILURES = new Set(["host_failure", "harness_error", "timeout", "lease_expired"]);

export function chargeFor(result: HarnessResult, cap: Cost): Cost {
  const unaccounted = result.outcome === "failed" && UNACCOUNTED_FAILURES.has(result.failure ?? "");
  // USD and tokens nothing outside the agent's reach counted are charged at the cap.
  const modelUntrusted = unaccounted || result.metering === "unmetered";
  // Stopped at its USD ceiling: on the last of a budget the proxy stops a slice short of it,
  // when what is left could not pay for one more call. That rest is spent, so the goal pauses
  // instead of starting slices that cannot afford a call.
  const stopped = result.outcome === "failed" && result.failure === "budget_exceeded";
  return {
    usd: modelUntrusted || stopped ? Math.max(result.cost.usd, cap.usd) : result.cost.usd,
    tokens: modelUntrusted ? Math.max(result.cost.tokens, cap.tokens) : result.cost.tokens,
    runnerMinutes: unaccounted
      ? Math.max(result.cost.runnerMinutes, cap.runnerMinutes)
      : result.cost.runnerMinutes,
  };
}

/** Progress the kernel believes: the agent said so AND the validation command passed. */
export function isValidatedProgress(result: HarnessResult): boolean {
  return (
    (result.outcome === "progress" || result.outcome === "completed") &&
    result.validation?.passed === true
  );
}

/** A material delta: validated progress, or commits that changed the branch. */
export function isMaterialDelta(result: HarnessResult): boolean {
  return isValidatedProgress(result) || result.commits.length > 0;
}

/**
 * Records what the slice reported; returns the ids that can support a completion: only what
 * the agent cannot fake — its commits, and a passing validation on a tree it changed. The
 * agent's own evidence is kept for people and later slices, but its words complete nothing.
 */
function recordEvidence(d: Draft, result: HarnessResult, tickId: string, todo: string): string[] {
  const support: string[] = [];
  for (const e of result.evidence) {
    appendEvidence(d, { ...e, summary: reportedSummary(e.summary), todo, tickId });
  }
  for (const c of result.commits) {
    const summary = commitSummary(c);
    support.push(appendEvidence(d, { kind: "commit", summary, sha: c.sha, todo, tickId }));
  }
  const v = result.validation;
  if (v !== null) {
    const id = appendEvidence(d, {
      kind: "test",
      summary: testRunEvidence({ ...v, output: v.summary }),
      todo,
      tickId,
    });
    // A failing check is recorded, but it never supports a completion; nor does a pass on
    // an unchanged tree (a todo that changes no files needs a writer's tick).
    if (v.passed && result.changed !== false) support.push(id);
  }
  return support;
}

function complete(
  d: Draft,
  todo: Todo,
  result: HarnessResult,
  tickId: string,
  evidenceIds: [string, ...string[]],
): void {
  const input = result.continuation;
  let continuation: Continuation;
  if (input === null || input.kind === "goal_active") {
    continuation = { kind: "goal_active" };
  } else if (input.kind === "no_followup") {
    continuation = { kind: "no_followup", reason: input.reason };
  } else {
    const successor = successorOf(d, todo, input);
    continuation = successor ? { kind: "successor", todo: successor.key } : { kind: "goal_active" };
    if (successor) d.state.goal.focus = successor.key;
  }
  completeTodo(d, todo, {
    evidenceIds,
    continuation,
    by: actorName(d.ctx.actor),
    tickId,
    unopenedBranchWork: needsPullRequest(d.state, todo, result),
  });
}

/**
 * The todo a completion names as its successor. The same title as an open todo is that todo,
 * as for proposals (naming the todo being completed names none); a new one starts once the
 * todo it follows is delivered: while that todo's PR waits, it would start from a default
 * branch without the work it follows.
 */
function successorOf(
  d: Draft,
  todo: Todo,
  input: Extract<ContinuationInput, { kind: "successor" }>,
): Todo | null {
  const named = openTodoNamed(d.state.todos, input.title);
  if (named) return named.key === todo.key ? null : named;
  const successor = appendTodo(d, {
    title: input.title,
    detail: input.detail,
    requiredScopes: input.requiredScopes,
    origin: "agent",
    position: todo.position,
  });
  successor.resumeWhen = { kind: "todo_done", todo: todo.key };
  holdForApproval(d, [successor]);
  return successor;
}

/** The slice asked for a gate, and its open todo is now held by an unanswered gate. */
function awaitsItsGate(d: Draft, todo: Todo, result: HarnessResult): boolean {
  if (result.outcome === "failed" || result.gateRequests.length === 0) return false;
  if (todo.status === "done" || todo.status === "dropped") return false;
  const scopes = buildScopeIndex(d.state.gates, d.state.goal.grantedScopes);
  return blockingGatesFor(scopes, todo.requiredScopes).length > 0;
}

/**
 * Applies what one slice reported. The cost is charged exactly once (the tick finishes
 * here); the slot is spent only for validated progress; a late or foreign result is refused.
 */
export function applyTickResult(
  state: GoalState,
  input: TickResultInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(TickResultSchema, input);
  if (isRefused(parsed)) return parsed;
  const d = begin(state, ctx, { statuses: GoalStatus.options });
  if (isRefused(d)) return d;
  const tick = findLiveTick(d, parsed.tickId, parsed.leaseToken);
  if (isRefused(tick)) return tick;
  const result = parsed.result;
  if (result.todo !== tick.todo) {
    return refuse(
      "invalid_input",
      `result.todo: the result is for ${result.todo}, but tick #${tick.number} claimed ${tick.todo}.`,
    );
  }
  const todo = d.state.todos.find((t) => t.key === tick.todo);
  if (!todo)
    return refuse("not_found", `Tick #${tick.number}'s todo ${tick.todo} no longer exists.`);
  const interrupted = interruptionOf(tick);
  if (interrupted) return settleInterrupted(d, tick, todo, interrupted, result);

  const support = recordEvidence(d, result, tick.id, todo.key);
  // A person may have finished or dropped the todo meanwhile; the slice is still charged.
  const stillOpen = todo.status !== "done" && todo.status !== "dropped";
  if (result.outcome === "completed" && stillOpen && todo.kind !== "plan") {
    const [first, ...more] = support;
    if (first === undefined) {
      awaitEvidence(d, todo, tick.id);
      // Work built on it waits too, and only a person can say it is done: they are told.
      notifyOwners(d, {
        kind: "evidence_awaited",
        key: `evidence:${todo.key}:${tick.id}`,
        todo: todo.key,
        text: `${todo.key} is done only in the agent's words: no commit and no passing validation show it. Tick it in the checklist if it is done; otherwise \`/loopx todo drop ${todo.key}\` or \`/loopx replan\`.`,
      });
    } else complete(d, todo, result, tick.id, [first, ...more]);
    if (result.commits.length === 0) actOnWhatWasHeld(d, todo);
  }
  const planning = todo.kind === "plan" && stillOpen;
  const plan = planning ? applyPlan(d, todo, tick.id, result) : null;
  const planned = plan?.accepted ?? false;
  if (!planning) addProposals(d, result);

  tick.sessionId = result.sessionId;
  if (isValidatedProgress(result)) {
    tick.slotSpent = true;
    emit(d, "quota.slot_spent", { tickId: tick.id, number: tick.number, todo: tick.todo });
  }
  finishTick(
    d,
    tick,
    result.outcome,
    result.failure,
    chargeFor(result, sliceCeiling(d.state.goal)),
  );
  if (result.withheld.length > 0) {
    emit(d, "credential.withheld", { tickId: tick.id, fields: result.withheld });
  }

  d.state.handoffs.push({ ...result.handoff, tickId: tick.id, createdAt: ctx.now });
  if (result.proposedTodos.length > 0) d.state.goal.replanRequested = false;
  for (const g of result.gateRequests) {
    openGateIn(d, { ...g, todo: tick.todo });
    // The gate scopes its own todo: it waits for the answer like any todo needing the scope.
    const needs = new Set([...todo.requiredScopes, ...g.scopes]);
    if (stillOpen && needs.size <= 10) todo.requiredScopes = [...needs];
  }

  // Asking for authority it lacks is the slice doing its job, not a stall: its todo waits for the
  // answer while the others go on at once. It cannot spin: the open gate holds the todo.
  // A planning slice's work is its todo list: files it wrote (its notes) are not progress.
  const material = planning ? plan?.changed === true : isMaterialDelta(result);
  if (material) {
    const why = isValidatedProgress(result) ? "validated progress" : "new commits";
    resetBackoff(d, planning ? "an accepted plan" : why);
  } else if (!planned && !awaitsItsGate(d, todo, result)) {
    // An accepted plan that keeps the open todos as they are neither ends a stall nor is one:
    // a stuck todo's stalls go on counting to a person, and a replan may keep its todo.
    const why =
      result.outcome === "failed"
        ? `failed (${result.failure})`
        : todo.kind === "plan"
          ? "planned no todo"
          : "made no material change";
    stall(d, `tick #${tick.number} on ${tick.todo} ${why}`);
  }
  if (isMaterialDelta(result) || planned || result.outcome === "completed") {
    addEffect(d, { kind: "tick_comment", key: `tick:${tick.id}`, tickId: tick.id });
  }
  // The report job pushes these commits next and says which files they changed, which decides
  // whether a todo waits for them: the next tick is dispatched on that report, not before it.
  return commit(d, { pushFollows: result.commits.length > 0 });
}
