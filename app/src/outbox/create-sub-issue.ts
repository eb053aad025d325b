import { type GoalState, linkSubIssue, subIssueTitle, wantsSubIssue } from "@loopx/core";
import {
  GitHubError,
  type GitHubPort,
  neutralize,
  neutralizeInline,
  readKey,
  withKey,
} from "@loopx/github";
import type { AppDeps } from "../deps.ts";
import { transitionContext } from "../intake/goal-context.ts";
import { loadRepoConfig } from "../repo-config.ts";

/** GitHub's most sub-issues for one parent issue. */
export const SUB_ISSUE_LIMIT = 100;

/** Permanent (422, GitHub's own answer): the outbox parks it as a dead letter the status shows. */
function subIssueLimit(parent: number, todo: string): GitHubError {
  return new GitHubError(
    `#${parent} already has ${SUB_ISSUE_LIMIT} sub-issues, the most GitHub allows: ${todo} stays in the checklist only. Unlink sub-issues that are done to make room, or split the goal.`,
    422,
    null,
  );
}

/** Hidden in the sub-issue's body, so a retry after a crash finds it instead of a twin. */
export const subIssueKey = (state: GoalState, todo: string) => `sub-issue:${state.goal.id}:${todo}`;

function subIssueBody(state: GoalState, todo: GoalState["todos"][number]): string {
  const goal = state.goal;
  const detail = todo.detail.trim() === "" ? "" : `\n\n${neutralize(todo.detail)}`;
  return (
    `${todo.key} of the LoopX goal #${goal.issue.number} ` +
    `(${neutralizeInline(goal.objective.title)}).${detail}\n\n` +
    "Closing this issue as **completed** completes the todo; closing it as **not planned** " +
    "drops it (when someone with write access closes it)."
  );
}

/**
 * Performs `create_sub_issue`: creates the issue (body linking the goal) and links it as a
 * sub-issue by its numeric id (port.createSubIssue does both), then records it on the todo
 * with a kernel transition, so the checklist links it and its close settles the todo.
 */
export async function createSubIssue(
  deps: AppDeps,
  port: GitHubPort,
  state: GoalState,
  todoKey: string,
): Promise<void> {
  const todo = state.todos.find((t) => t.key === todoKey);
  if (!todo || todo.subIssue !== null || todo.status === "dropped") return;
  const parent = {
    owner: state.goal.repo.owner,
    repo: state.goal.repo.name,
    number: state.goal.issue.number,
  };
  const key = subIssueKey(state, todo.key);
  const subs = await port.listSubIssues(parent);
  const existing = subs.find((i) => readKey(i.body) === key);
  // Checked before creating: GitHub would create the issue, then refuse the link (422).
  if (!existing && subs.length >= SUB_ISSUE_LIMIT) throw subIssueLimit(parent.number, todo.key);
  const created =
    existing ??
    (await port.createSubIssue(
      parent,
      subIssueTitle(todo),
      withKey(subIssueBody(state, todo), key),
    ));
  const linked = await deps.store.apply(state.goal.id, (s, now) =>
    linkSubIssue(
      s,
      { todo: todo.key, id: created.id, number: created.number },
      transitionContext(deps, { kind: "app" }, now),
    ),
  );
  // A refusal here (already linked, goal finished) leaves nothing to retry.
  if (!linked.ok) deps.log.info(`sub-issue #${created.number}: ${linked.refusal.message}`);
}

/**
 * Performs `todo_sub_issues`: under `todos: sub-issues` every open task without a sub-issue
 * gets one, in plan order. Another config (or an invalid one, which pauses the goal where it
 * is read) creates nothing.
 */
export async function createTodoSubIssues(
  deps: AppDeps,
  port: GitHubPort,
  state: GoalState,
): Promise<void> {
  const config = await loadRepoConfig(port, {
    owner: state.goal.repo.owner,
    repo: state.goal.repo.name,
  });
  if (!config.ok || config.config.todos !== "sub-issues") return;
  const todos = state.todos.filter(wantsSubIssue).sort((a, b) => a.position - b.position);
  for (const todo of todos) await createSubIssue(deps, port, state, todo.key);
}
