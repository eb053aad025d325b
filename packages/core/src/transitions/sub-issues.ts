import { z } from "zod";
import { TodoKey } from "../schemas/primitives.ts";
import type { GoalState } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import { completeTodo } from "./complete-todo.ts";
import {
  appendEvidence,
  begin,
  emit,
  findTodo,
  isRefused,
  isTrustedActor,
  parseInput,
  refuse,
  resetBackoff,
} from "./kit.ts";

const IssueId = z.number().int().positive();

const LinkInput = z.object({ todo: TodoKey, id: IssueId, number: IssueId });

/**
 * Records the sub-issue GitHub created for a todo (the outbox performed `create_sub_issue`),
 * so the checklist links it and its close can settle the todo. Only LoopX itself or the
 * system links: a person promotes a todo with a command, which the outbox then performs.
 */
export function linkSubIssue(
  state: GoalState,
  input: { todo: string; id: number; number: number },
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(LinkInput, input);
  if (isRefused(parsed)) return parsed;
  if (ctx.actor.kind !== "app" && ctx.actor.kind !== "system") {
    return refuse("not_authorized", "Only LoopX links a todo to the sub-issue it created.");
  }
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const todo = findTodo(d, parsed.todo);
  if (isRefused(todo)) return todo;
  if (todo.subIssue?.id === parsed.id) {
    return refuse("duplicate", `${todo.key} is already linked to #${parsed.number}.`);
  }
  todo.subIssue = { id: parsed.id, number: parsed.number };
  todo.updatedAt = ctx.now;
  d.checklist = true;
  d.status = false;
  emit(d, "todo.sub_issue_linked", { todo: todo.key, id: parsed.id, number: parsed.number });
  return commit(d);
}

/**
 * A person removed the sub-issue link on GitHub. The todo is the plan's and stays; only the
 * link goes, so closing that issue later no longer settles the todo.
 */
export function unlinkSubIssue(
  state: GoalState,
  input: { todo: string },
  ctx: TransitionContext,
): TransitionResult {
  const key = parseInput(TodoKey, input.todo);
  if (isRefused(key)) return key;
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const todo = findTodo(d, key);
  if (isRefused(todo)) return todo;
  const was = todo.subIssue;
  if (was === null) return refuse("invalid_state", `${todo.key} has no sub-issue to unlink.`);
  todo.subIssue = null;
  todo.updatedAt = ctx.now;
  d.checklist = true;
  d.status = false;
  emit(d, "todo.sub_issue_unlinked", { todo: todo.key, id: was.id, number: was.number });
  return commit(d);
}

const SettleInput = z.object({
  todo: TodoKey,
  outcome: z.enum(["completed", "not_planned"]),
});

/**
 * A writer closed a todo's sub-issue: as completed, the todo is done (the close is its
 * evidence; a person cannot speak for what follows, so the goal stays active), or waits for
 * its open pull request to merge; as not planned, the todo is dropped. The sub-issue is
 * already closed, so nothing closes it again.
 */
export function settleTodoFromSubIssue(
  state: GoalState,
  input: { todo: string; outcome: "completed" | "not_planned" },
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(SettleInput, input);
  if (isRefused(parsed)) return parsed;
  const actor = ctx.actor;
  if (actor.kind !== "human" || !isTrustedActor(actor)) {
    return refuse(
      "not_authorized",
      "Closing a sub-issue settles its todo only when someone with write access closes it.",
    );
  }
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const todo = findTodo(d, parsed.todo);
  if (isRefused(todo)) return todo;
  if (todo.subIssue === null) {
    return refuse("invalid_state", `${todo.key} has no sub-issue.`);
  }
  if (todo.status === "done" || todo.status === "dropped") {
    return refuse("duplicate", `${todo.key} is already ${todo.status}.`);
  }
  const number = todo.subIssue.number;
  todo.claim = null;
  todo.updatedAt = ctx.now;
  d.checklist = true;
  if (parsed.outcome === "not_planned") {
    todo.status = "dropped";
    emit(d, "todo.dropped", {
      todo: todo.key,
      reason: `sub-issue #${number} closed as not planned by @${actor.login}`,
    });
  } else {
    const evidenceId = appendEvidence(d, {
      kind: "note",
      summary: `sub-issue #${number} closed as completed by @${actor.login}`,
      todo: todo.key,
    });
    completeTodo(d, todo, {
      evidenceIds: [evidenceId],
      continuation: { kind: "goal_active" },
      by: `@${actor.login}`,
      subIssueClosed: true,
    });
  }
  resetBackoff(d, `${todo.key} settled by sub-issue #${number}`);
  return commit(d);
}
