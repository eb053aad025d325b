import type { Todo, TodoKind } from "./schemas/todo.ts";

/**
 * A replan first (stalled work should not be retried unchanged), then repair (failing
 * checks), review feedback, rebases, and ordered tasks.
 */
export const KIND_PRIORITY: Readonly<Record<TodoKind, number>> = Object.freeze({
  plan: 0,
  repair: 1,
  review: 2,
  rebase: 3,
  task: 4,
  monitor: 5,
  user_action: 6,
});

/** Kinds the agent never runs: monitors are observed by the app, user actions are for people. */
export function isAgentKind(kind: TodoKind): boolean {
  return kind !== "monitor" && kind !== "user_action";
}

export function keyNumber(key: string): number {
  return Number.parseInt(key.slice(1), 10);
}

export function compareTodos(a: Todo, b: Todo): number {
  return (
    KIND_PRIORITY[a.kind] - KIND_PRIORITY[b.kind] ||
    a.position - b.position ||
    keyNumber(a.key) - keyNumber(b.key)
  );
}
