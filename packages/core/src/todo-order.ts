import type { Todo, TodoKind } from "./schemas/todo.ts";

/** Repair (failing checks) first, then review feedback, then rebases, then ordered tasks. */
export const KIND_PRIORITY: Readonly<Record<TodoKind, number>> = Object.freeze({
  repair: 0,
  review: 1,
  rebase: 2,
  task: 3,
  monitor: 4,
  user_action: 5,
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
