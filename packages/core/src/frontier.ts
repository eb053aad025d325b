import { isHeldByOther } from "./claims.ts";
import { isLeaseLive } from "./lease.ts";
import { matchesGlob } from "./path-rules.ts";
import type { GoalState } from "./schemas/state.ts";
import type { Continuation, Todo } from "./schemas/todo.ts";
import type { ScopeIndex } from "./scope.ts";
import { blockingGatesFor, buildScopeIndex } from "./scope.ts";
import { compareTodos, isAgentKind } from "./todo-order.ts";
import { isAwaitingPullRequest } from "./transitions/await-pull-request.ts";

/** The goal's work frontier as decide() sees it at one instant. */
export interface Frontier {
  scopes: ScopeIndex;
  /** Ready agent todos whose resume condition holds, gate-blocked or not. */
  candidates: Todo[];
  /** Candidates no unresolved gate blocks, best first (leases aside). */
  runnable: Todo[];
  /** Candidates an unresolved gate blocks (see blockingGatesFor for which gates). */
  blocked: Todo[];
  /**
   * Ready agent todos someone else holds (a `/loopx claim`, an assignee), best first: never
   * runnable, and not candidates either, so they neither run nor ask for gates.
   */
  heldByOthers: Todo[];
  /**
   * Ready todos held back because a finished todo's unmerged work changed files they declare:
   * started from the default branch now, each would conflict with that work once it merged.
   * `pr` is that work's open pull request (null while the App has yet to open it).
   */
  waitingOnPulls: { todo: Todo; on: string; pr: number | null }[];
  /** Todos with a live lease, soonest expiry first. */
  leased: Todo[];
  /** Todos still open (ready, blocked, deferred) of any kind. */
  open: Todo[];
  /** Future `resumeWhen.at` instants of ready todos: the loop should look again then. */
  resumeAt: Date | null;
  /** The most recent completion's continuation, if any todo is done. */
  lastContinuation: Continuation | null;
}

interface Lookups {
  byKey: Map<string, Todo>;
  merged: Set<number>;
}

function resumeSatisfied(
  todo: Todo,
  now: Date,
  state: GoalState,
  cache: { l: Lookups | null },
): boolean {
  const rw = todo.resumeWhen;
  if (rw === null) return true;
  switch (rw.kind) {
    case "at":
      return rw.at.getTime() <= now.getTime();
    case "todo_done": {
      const other = lookups(state, cache).byKey.get(rw.todo);
      // A dropped predecessor will never finish; waiting on it forever would stall the goal.
      return other !== undefined && (other.status === "done" || other.status === "dropped");
    }
    case "pr_merged":
      return lookups(state, cache).merged.has(rw.pr);
    case "job":
      // Only the run's completion (a webhook) clears it: no clock or state can.
      return false;
  }
}

/** Built only when some todo waits on another todo or a PR: most decide() calls never need them. */
function lookups(state: GoalState, cache: { l: Lookups | null }): Lookups {
  if (cache.l) return cache.l;
  const byKey = new Map<string, Todo>();
  for (const t of state.todos) byKey.set(t.key, t);
  const merged = new Set<number>();
  for (const pr of state.pullRequests) if (pr.state === "merged") merged.add(pr.number);
  cache.l = { byKey, merged };
  return cache.l;
}

export function analyseFrontier(state: GoalState, now: Date): Frontier {
  const scopes = buildScopeIndex(state.gates, state.goal.grantedScopes);
  const cache: { l: Lookups | null } = { l: null };

  const candidates: Todo[] = [];
  const runnable: Todo[] = [];
  const blocked: Todo[] = [];
  const leased: Todo[] = [];
  const heldByOthers: Todo[] = [];
  const waitingOnPulls: Frontier["waitingOnPulls"] = [];
  const waitsOnPull = pullWaitsOf(state);
  const open: Todo[] = [];
  let resumeAt: Date | null = null;
  let last: Todo | null = null;

  for (const todo of state.todos) {
    if (isLeaseLive(todo.claim, now)) leased.push(todo);
    if (todo.status === "done") {
      if (
        todo.completion !== null &&
        (last === null ||
          last.completion === null ||
          todo.completion.at.getTime() >= last.completion.at.getTime())
      ) {
        last = todo;
      }
      continue;
    }
    if (todo.status === "dropped") continue;
    open.push(todo);
    if (todo.status !== "ready" || !isAgentKind(todo.kind)) continue;
    if (!resumeSatisfied(todo, now, state, cache)) {
      const rw = todo.resumeWhen;
      if (rw?.kind === "at" && (resumeAt === null || rw.at.getTime() < resumeAt.getTime())) {
        resumeAt = rw.at;
      }
      continue;
    }
    const ahead = waitsOnPull(todo);
    if (ahead) {
      waitingOnPulls.push({ todo, ...ahead });
      continue;
    }
    if (isHeldByOther(todo.heldBy, now)) {
      heldByOthers.push(todo);
      continue;
    }
    candidates.push(todo);
    if (blockingGatesFor(scopes, todo.requiredScopes).length > 0) blocked.push(todo);
    else runnable.push(todo);
  }
  runnable.sort(compareTodos);
  heldByOthers.sort(compareTodos);
  leased.sort(
    (a, b) => (a.claim?.leaseExpiresAt.getTime() ?? 0) - (b.claim?.leaseExpiresAt.getTime() ?? 0),
  );
  return {
    scopes,
    candidates,
    runnable,
    blocked,
    heldByOthers,
    waitingOnPulls,
    leased,
    open,
    resumeAt,
    lastContinuation: last?.completion?.continuation ?? null,
  };
}

/** The finished todo whose unmerged work a todo waits for, and that work's open PR. */
export type PullWait = { on: string; pr: number | null } | null;

/**
 * For many todos at once: the finished todo (awaiting its pull request) whose pushed commits
 * changed a file that a todo declares it will touch, which the todo must wait for. Only files
 * the report job saw pushed count, never declared globs: two todos under one folder may well
 * work apart. A todo that declares no paths runs as it always has, since nothing says what it
 * will touch.
 */
export function pullWaitsOf(state: GoalState): (todo: Todo) => PullWait {
  const work = state.todos.filter((t) => t.pushedPaths.length > 0 && isAwaitingPullRequest(t));
  if (work.length === 0) return () => null;
  return (todo) => {
    if (todo.paths.length === 0) return null;
    const ahead = work.find(
      (w) =>
        w.key !== todo.key &&
        w.pushedPaths.some((file) => todo.paths.some((glob) => matchesGlob(file, glob))),
    );
    if (!ahead) return null;
    const pr = state.pullRequests.find((p) => p.state === "open" && p.todo === ahead.key);
    return { on: ahead.key, pr: pr?.number ?? null };
  };
}
