import type { GoalState } from "../schemas/state.ts";
import type { Continuation, Todo } from "../schemas/todo.ts";
import { awaitPullRequest, isAwaitingPullRequest } from "./await-pull-request.ts";
import type { Draft } from "./kit.ts";
import { addEffect, emit } from "./kit.ts";

export interface Completion {
  /** What shows the todo is done; a todo is never done on no evidence. */
  evidenceIds: [string, ...string[]];
  continuation: Continuation;
  /** Who or what completed it, for the event (`@login`, `#12`, `tick`). */
  by: string;
  tickId?: string | null;
  /**
   * The completion is a slice whose commits are only on the todo's branch and no PR of
   * LoopX's carries them yet: the PR still has to be opened and merged.
   */
  unopenedBranchWork?: boolean;
  /** Its sub-issue is already closed (closing it is what completed the todo). */
  subIssueClosed?: boolean;
  /**
   * This completion is the delivery itself (the todo's PR merged, or GitHub found its branch
   * in the base): only a delivery completes a todo that waits for its pull request.
   */
  delivered?: boolean;
}

/**
 * How work goes on once `delivered` reached the default branch: other open todos keep the
 * goal active; with none left, nothing follows (`why` says what delivered them).
 */
export function continuationAfter(d: Draft, delivered: Set<string>, why: string): Continuation {
  const rest = d.state.todos.filter(
    (t) => !delivered.has(t.key) && t.status !== "done" && t.status !== "dropped",
  );
  return rest.length > 0 ? { kind: "goal_active" } : { kind: "no_followup", reason: why };
}

/** LoopX's open pull request for this todo's own work, if there is one. */
export function openPullRequestOf(state: GoalState, todo: Todo) {
  return state.pullRequests.find((p) => p.todo === todo.key && p.state === "open") ?? null;
}

/**
 * The one way a todo becomes done. Its work is delivered when it reaches the default branch,
 * whoever says it is finished: while the todo's own pull request is open, or its commits have
 * no pull request yet, the completion waits for that merge instead (the merge then completes
 * it, with the merge commit as evidence). Returns what became of the todo.
 */
export function completeTodo(d: Draft, todo: Todo, c: Completion): "done" | "awaiting_merge" {
  const waiting = isAwaitingPullRequest(todo) && !c.delivered;
  if (waiting || c.unopenedBranchWork || openPullRequestOf(d.state, todo) !== null) {
    awaitPullRequest(d, todo, c.tickId ?? null);
    return "awaiting_merge";
  }
  const now = d.ctx.now;
  todo.status = "done";
  todo.blockedReason = null;
  todo.claim = null;
  todo.completion = {
    continuation: c.continuation,
    evidenceIds: c.evidenceIds,
    tickId: c.tickId ?? null,
    at: now,
  };
  todo.updatedAt = now;
  d.checklist = true;
  emit(d, "todo.completed", {
    todo: todo.key,
    by: c.by,
    tickId: c.tickId ?? null,
    continuation: c.continuation.kind,
    evidence: c.evidenceIds,
  });
  if (todo.subIssue && !c.subIssueClosed) {
    addEffect(d, {
      kind: "close_sub_issue",
      key: `todo:${todo.key}:close`,
      todo: todo.key,
      reason: "completed",
    });
  }
  return "done";
}
