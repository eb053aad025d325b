/** What a transition asks of a todo's sub-issue: a title to follow, a sub-issue to create. */
import type { Todo } from "../schemas/todo.ts";
import { addEffect, type Draft } from "./kit.ts";

/** The title a todo's sub-issue carries: its key, then its title (GitHub allows 256). */
export const subIssueTitle = (todo: Pick<Todo, "key" | "title">): string =>
  `${todo.key}: ${todo.title}`.slice(0, 256);

/**
 * Reads a todo's title back from its sub-issue's: without the `T1: ` LoopX puts in front,
 * when it is still there.
 */
export function todoTitleFrom(todo: Pick<Todo, "key">, issueTitle: string): string {
  const prefix = `${todo.key}:`;
  const t = issueTitle.trim();
  return t.startsWith(prefix) ? t.slice(prefix.length).trim() : t;
}

/** A todo renamed inside LoopX: its sub-issue follows, through the outbox, once per version. */
export function syncSubIssueTitle(d: Draft, todo: Todo): void {
  if (todo.subIssue === null) return;
  addEffect(d, {
    kind: "sub_issue_title",
    key: `todo:${todo.key}:title:v${d.state.goal.version + 1}`,
    todo: todo.key,
  });
}

/**
 * Todos became ready to run (a plan, released or auto; a writer's todo; the task list): the
 * outbox gives each open task a sub-issue when the repository's config says `todos: sub-issues`.
 */
export function offerSubIssues(d: Draft, todos: readonly Todo[]): void {
  if (!todos.some((t) => t.kind === "task" && t.status === "ready" && t.subIssue === null)) return;
  addEffect(d, { kind: "todo_sub_issues", key: `todo_sub_issues:v${d.state.goal.version + 1}` });
}

/** The todos `todos: sub-issues` gives a sub-issue: open tasks, not proposed, without one. */
export function wantsSubIssue(todo: Todo): boolean {
  const open = todo.status === "ready" || todo.status === "blocked" || todo.status === "deferred";
  return open && todo.kind === "task" && todo.subIssue === null && todo.origin !== "pr-monitor";
}
