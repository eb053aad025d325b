import { TodoKey } from "../schemas/primitives.ts";
import type { GoalState } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import {
  addEffect,
  appendEvidence,
  begin,
  commit,
  emit,
  findTodo,
  isRefused,
  parseInput,
  refuse,
  resetBackoff,
} from "./kit.ts";

/**
 * A writer ticked the todo's box. That is evidence in its own right (a `note` naming who),
 * and since a person cannot speak for what follows, the goal stays active.
 */
export function completeTodoByHuman(
  state: GoalState,
  input: { todo: string },
  ctx: TransitionContext,
): TransitionResult {
  const key = parseInput(TodoKey, input.todo);
  if (isRefused(key)) return key;
  const actor = ctx.actor;
  if (actor.kind !== "human" || !actor.trusted) {
    return refuse(
      "not_authorized",
      "Only a person with write access to the repository can complete a todo by hand.",
    );
  }
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const todo = findTodo(d, key);
  if (isRefused(todo)) return todo;
  if (todo.status === "done") return refuse("duplicate", `${todo.key} is already done.`);
  if (todo.status === "dropped") {
    return refuse("invalid_state", `${todo.key} was dropped; reopen it before completing it.`);
  }
  const evidenceId = appendEvidence(d, {
    kind: "note",
    summary: `completed by @${actor.login}`,
    todo: todo.key,
  });
  todo.status = "done";
  todo.claim = null;
  todo.completion = {
    continuation: { kind: "goal_active" },
    evidenceIds: [evidenceId],
    tickId: null,
    at: ctx.now,
  };
  todo.updatedAt = ctx.now;
  d.checklist = true;
  emit(d, "todo.completed", { todo: todo.key, by: actor.login, continuation: "goal_active" });
  if (todo.subIssue) {
    addEffect(d, {
      kind: "close_sub_issue",
      key: `todo:${todo.key}:close`,
      todo: todo.key,
      reason: "completed",
    });
  }
  resetBackoff(d, `${todo.key} completed by @${actor.login}`);
  return commit(d);
}

export function reopenTodo(
  state: GoalState,
  input: { todo: string },
  ctx: TransitionContext,
): TransitionResult {
  const key = parseInput(TodoKey, input.todo);
  if (isRefused(key)) return key;
  const actor = ctx.actor;
  if (
    !(actor.kind === "human" && actor.trusted) &&
    actor.kind !== "app" &&
    actor.kind !== "system"
  ) {
    return refuse(
      "not_authorized",
      "Only a person with write access (or LoopX itself) can reopen a todo.",
    );
  }
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const todo = findTodo(d, key);
  if (isRefused(todo)) return todo;
  if (todo.status !== "done" && todo.status !== "dropped") {
    return refuse(
      "invalid_state",
      `${todo.key} is ${todo.status}, not done or dropped; nothing to reopen.`,
    );
  }
  todo.status = "ready";
  todo.completion = null;
  todo.updatedAt = ctx.now;
  d.checklist = true;
  emit(d, "todo.reopened", { todo: todo.key });
  resetBackoff(d, `${todo.key} reopened`);
  return commit(d);
}
