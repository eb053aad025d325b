import { type GoalState, linkSubIssue, subIssueTitle } from "@loopx/core";
import { type GitHubPort, neutralize, neutralizeInline, readKey, withKey } from "@loopx/github";
import type { AppDeps } from "../deps.ts";

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
  const existing = (await port.listSubIssues(parent)).find((i) => readKey(i.body) === key);
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
      { actor: { kind: "app" }, now, newId: deps.newId },
    ),
  );
  // A refusal here (already linked, goal finished) leaves nothing to retry.
  if (!linked.ok) deps.log.info(`sub-issue #${created.number}: ${linked.refusal.message}`);
}
