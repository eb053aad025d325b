import { TodoKey } from "../schemas/primitives.ts";
import type { GoalState } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { isAwaitingPullRequest } from "./await-pull-request.ts";
import { commit } from "./commit.ts";
import { completeTodo, openPullRequestOf } from "./complete-todo.ts";
import {
  appendEvidence,
  begin,
  emit,
  findTodo,
  isRefused,
  parseInput,
  refuse,
  resetBackoff,
} from "./kit.ts";
import { actOnWhatWasHeld } from "./own-todo-at-work.ts";

/**
 * A writer ticked the todo's box. That is evidence in its own right (a `note` naming who),
 * and since a person cannot speak for what follows, the goal stays active. Work still on its
 * way to the default branch is not done by a tick: the todo waits for its pull request.
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
  if (isAwaitingPullRequest(todo)) {
    const pr = openPullRequestOf(d.state, todo);
    const which = pr ? `#${pr.number}` : "its pull request";
    return refuse(
      "duplicate",
      `${todo.key} already waits for ${which} to merge: its work is on its branch, and it is done when ${which} merges.`,
    );
  }
  const evidenceId = appendEvidence(d, {
    kind: "note",
    summary: `completed by @${actor.login}`,
    todo: todo.key,
  });
  completeTodo(d, todo, {
    evidenceIds: [evidenceId],
    continuation: { kind: "goal_active" },
    by: `@${actor.login}`,
  });
  actOnWhatWasHeld(d, todo);
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
