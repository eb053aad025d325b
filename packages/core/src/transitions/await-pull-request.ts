import { todoBranch } from "../build-brief.ts";
import type { GoalState } from "../schemas/state.ts";
import type { HarnessResult } from "../schemas/tick.ts";
import type { Todo } from "../schemas/todo.ts";
import type { Draft } from "./kit.ts";
import { emit } from "./kit.ts";

/**
 * Why a todo whose slice finished on a branch is still open. A todo is delivered when its
 * work reaches the default branch, not when the agent says so: until its pull request merges
 * the goal must not be done (a done goal refuses the push and never opens the PR).
 */
export const AWAITING_PULL_REQUEST = "finished on its branch; waits for its pull request to merge";

/**
 * Why a todo an agent said it finished is still open: nothing it cannot reach showed it —
 * no commit, no passing validation on a changed tree. A writer's tick completes it.
 */
export const AWAITING_EVIDENCE = "claimed, awaiting evidence: tick it if it is done";

/**
 * Why a todo whose change touches workflow files is still open: GitHub refuses those from
 * LoopX's token, so the change went to a person as a patch, and the todo waits for someone
 * with write access to push it to its branch. The agent cannot do it, so nothing is retried.
 * A slice that finished the todo waits for its PR after that push; one that made progress
 * goes on from the pushed branch.
 */
export const AWAITING_PERSON_PUSH =
  "its change touches workflow files only a person can push: waits for the patch on its branch";
const AWAITING_PERSON_PUSH_TO_GO_ON = `${AWAITING_PERSON_PUSH}, then goes on`;

export function isAwaitingPersonPush(todo: Todo): boolean {
  return (
    todo.status === "blocked" &&
    (todo.blockedReason === AWAITING_PERSON_PUSH ||
      todo.blockedReason === AWAITING_PERSON_PUSH_TO_GO_ON)
  );
}

/** Whether the slice whose patch a person pushes had finished the todo (see above). */
export function finishedBeforePersonPush(todo: Todo): boolean {
  return todo.blockedReason === AWAITING_PERSON_PUSH;
}

export function awaitPersonPush(d: Draft, todo: Todo, headSha: string): void {
  const finished = isAwaitingPullRequest(todo);
  todo.status = "blocked";
  todo.blockedReason = finished ? AWAITING_PERSON_PUSH : AWAITING_PERSON_PUSH_TO_GO_ON;
  todo.updatedAt = d.ctx.now;
  d.checklist = true;
  emit(d, "todo.awaiting_person_push", { todo: todo.key, headSha, finished });
}

export function isAwaitingEvidence(todo: Todo): boolean {
  return todo.status === "blocked" && todo.blockedReason === AWAITING_EVIDENCE;
}

export function awaitEvidence(d: Draft, todo: Todo, tickId: string): void {
  todo.status = "blocked";
  todo.blockedReason = AWAITING_EVIDENCE;
  todo.updatedAt = d.ctx.now;
  d.checklist = true;
  emit(d, "todo.edited", { todo: todo.key, fields: ["status"], awaitingEvidence: true, tickId });
}

export function isAwaitingPullRequest(todo: Todo): boolean {
  return todo.status === "blocked" && todo.blockedReason === AWAITING_PULL_REQUEST;
}

/**
 * A slice's commits still need a PR when its branch has no open PR of LoopX's. A follow-up
 * (repair, review, rebase) commits to a PR that is already watched: it completes at once (the
 * PR's own todo is the one that waits for its merge). Commits on a branch whose PR already
 * merged or closed are new work: they wait for the PR the App opens or reopens for them.
 */
export function needsPullRequest(state: GoalState, todo: Todo, result: HarnessResult): boolean {
  if (result.commits.length === 0) return false;
  const branch = todoBranch(state, todo.key);
  // Only LoopX's own PRs (opened for a todo) are the branch's: a linked one may be a fork's.
  return !state.pullRequests.some(
    (p) => p.headRef === branch && p.todo !== null && p.state === "open",
  );
}

export function awaitPullRequest(d: Draft, todo: Todo, tickId: string | null): void {
  todo.status = "blocked";
  todo.blockedReason = AWAITING_PULL_REQUEST;
  todo.updatedAt = d.ctx.now;
  d.checklist = true;
  emit(d, "todo.awaiting_pull_request", { todo: todo.key, tickId });
}

/**
 * The work never landed (its PR closed unmerged, or its push was refused): the todo is open
 * again for the next slice or the replan to decide on.
 */
export function releaseAwaiting(d: Draft, todo: Todo, why: string): void {
  if (!isAwaitingPullRequest(todo)) return;
  todo.status = "ready";
  todo.blockedReason = null;
  todo.updatedAt = d.ctx.now;
  d.checklist = true;
  emit(d, "todo.reopened", { todo: todo.key, reason: why });
}
