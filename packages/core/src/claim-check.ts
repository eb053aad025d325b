import { claimOfTodo } from "./claims.ts";
import type { GoalState, PullRequest } from "./schemas/state.ts";

/** The check on a todo branch's head that says which tick holds the todo, and until when. */
export const CLAIM_CHECK = "LoopX / claim";

/** The todos whose work lands on this PR's branch: its own and the monitor's follow-ups. */
const todosOf = (pr: PullRequest): string[] => [
  ...(pr.todo === null ? [] : [pr.todo]),
  ...pr.monitor.todos,
];

/** The live lease on a todo of this PR, if a tick holds one. */
export function claimOn(state: GoalState, pr: PullRequest, now: Date) {
  const keys = new Set(todosOf(pr));
  for (const todo of state.todos) {
    if (!keys.has(todo.key)) continue;
    const claim = claimOfTodo(state, todo, now);
    if (claim?.kind === "lease") return { todo: todo.key, claim };
  }
  return null;
}

/**
 * `LoopX / claim` for a PR whose todo a tick holds: neutral, so no ruleset waits on it. Its
 * title names the holder and not the lease's end, so a tick renewing its lease rewrites
 * nothing: at most one write when the claim starts and one when it ends.
 */
export function claimCheck(state: GoalState, pr: PullRequest, now: Date) {
  const held = claimOn(state, pr, now);
  if (held === null) return null;
  const tick = held.claim.tickNumber === null ? "a tick" : `tick ${held.claim.tickNumber}`;
  return {
    name: CLAIM_CHECK,
    pr: pr.number,
    headSha: pr.headSha,
    conclusion: "neutral" as const,
    title: `${held.todo} claimed by ${tick} (${held.claim.holder})`,
    summary: `${tick} (${held.claim.holder}) holds ${held.todo} of goal #${state.goal.issue.number}; its lease runs until ${held.claim.until.toISOString()} unless the tick renews it. Another agent should leave ${held.todo} alone until the claim is released or expires.`,
  };
}

/** What `LoopX / claim` says once no tick holds the PR's todos (written only over an earlier claim). */
export function releasedClaimCheck(state: GoalState, pr: PullRequest) {
  return {
    name: CLAIM_CHECK,
    pr: pr.number,
    headSha: pr.headSha,
    conclusion: "neutral" as const,
    title: "Not claimed",
    summary: `No tick of goal #${state.goal.issue.number} holds ${todosOf(pr).join(", ") || "this pull request's todo"} now.`,
  };
}
