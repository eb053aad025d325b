import { pullWaitsOf } from "./frontier.ts";
import type { GoalState } from "./schemas/state.ts";
import type { Todo } from "./schemas/todo.ts";
import { blockingGatesFor, buildScopeIndex } from "./scope.ts";
import { isAwaitingPullRequest } from "./transitions/await-pull-request.ts";

/** What an open todo waits on that the goal itself holds: other todos, gates, a pull request. */
export interface TodoDependencies {
  todos: string[];
  gates: string[];
  pr: number | null;
}

/**
 * The edges of a goal's todo board, for many todos at once (the gates' scope index and the
 * open pull requests are read once): a todo resuming when another is done, the unresolved
 * gates holding the scopes it needs, and the pull request it waits to merge (its own, or the
 * unmerged work of another todo that changes its paths). Done and dropped todos wait on nothing.
 */
export function todoDependenciesOf(state: GoalState): (todo: Todo) => TodoDependencies {
  const scopes = buildScopeIndex(state.gates, state.goal.grantedScopes);
  const openPr = new Map<string, number>();
  for (const p of state.pullRequests) {
    if (p.state === "open" && p.todo !== null && !openPr.has(p.todo)) openPr.set(p.todo, p.number);
  }
  const pullWait = pullWaitsOf(state);
  return (todo) => {
    if (todo.status === "done" || todo.status === "dropped")
      return { todos: [], gates: [], pr: null };
    const r = todo.resumeWhen;
    const merging = isAwaitingPullRequest(todo)
      ? (openPr.get(todo.key) ?? null)
      : todo.status === "ready"
        ? (pullWait(todo)?.pr ?? null)
        : null;
    return {
      todos: r?.kind === "todo_done" ? [r.todo] : [],
      gates: [...blockingGatesFor(scopes, todo.requiredScopes)],
      pr: r?.kind === "pr_merged" ? r.pr : merging,
    };
  };
}
