import { z } from "zod";
import { Title, TodoKey } from "../schemas/primitives.ts";
import type { GoalState } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import {
  appendTodo,
  begin,
  emit,
  findTodo,
  isRefused,
  parseInput,
  refuse,
  requireTrusted,
  resetBackoff,
} from "./kit.ts";

const IssueId = z.number().int().positive();

const AdoptInput = z.object({
  id: IssueId,
  number: IssueId,
  title: Title,
  /** Whether the issue's author (and so its title) could instruct: false makes the todo data. */
  authorTrusted: z.boolean(),
});

/**
 * A writer linked an existing issue as a sub-issue of the goal issue: it becomes a todo,
 * already linked. Its title is the issue's; written by someone without write access it is
 * the `outsider`'s words, which briefs show only as data.
 */
export function adoptSubIssue(
  state: GoalState,
  input: z.input<typeof AdoptInput>,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(AdoptInput, input);
  if (isRefused(parsed)) return parsed;
  const denied = requireTrusted(ctx, "add a sub-issue as a todo");
  if (denied) return denied;
  const d = begin(state, ctx, { statuses: ["active", "paused"] });
  if (isRefused(d)) return d;
  const twin = d.state.todos.find((t) => t.subIssue?.id === parsed.id);
  if (twin) return refuse("duplicate", `#${parsed.number} is already ${twin.key}'s sub-issue.`);
  const todo = appendTodo(d, {
    title: parsed.title,
    origin: parsed.authorTrusted ? "human" : "outsider",
  });
  todo.subIssue = { id: parsed.id, number: parsed.number };
  emit(d, "todo.sub_issue_linked", { todo: todo.key, id: parsed.id, number: parsed.number });
  resetBackoff(d, `new todo ${todo.key} from sub-issue #${parsed.number}`);
  d.state.goal.replanRequested = false;
  return commit(d);
}

const RetitleInput = z.object({ todo: TodoKey, title: Title });

/**
 * A writer retitled a todo's sub-issue: the todo takes the new title as theirs (a writer's
 * words instruct, whoever wrote the old ones). Nothing is written back: GitHub has it.
 */
export function retitleTodoFromSubIssue(
  state: GoalState,
  input: { todo: string; title: string },
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(RetitleInput, input);
  if (isRefused(parsed)) return parsed;
  const denied = requireTrusted(ctx, "rename todos");
  if (denied) return denied;
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const todo = findTodo(d, parsed.todo);
  if (isRefused(todo)) return todo;
  if (todo.subIssue === null) return refuse("invalid_state", `${todo.key} has no sub-issue.`);
  if (todo.title === parsed.title && todo.origin === "human") {
    return refuse("duplicate", `${todo.key} is already called that.`);
  }
  todo.title = parsed.title;
  if (todo.origin === "outsider" || todo.origin === "agent") todo.origin = "human";
  todo.updatedAt = ctx.now;
  d.checklist = true;
  emit(d, "todo.edited", { todo: todo.key, fields: ["title"], from: "sub-issue" });
  resetBackoff(d, `${todo.key} renamed on its sub-issue`);
  return commit(d);
}
