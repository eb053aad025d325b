import { type GoalState, subIssueTitle } from "@loopx/core";
import type { GitHubPort } from "@loopx/github";

/**
 * Performs `sub_issue_title`: the todo's sub-issue takes the todo's newest title. Written
 * only when GitHub's differs, so a retry or a rename back writes nothing; the echo of this
 * write comes from the App's bot and is ignored, so sync never loops.
 */
export async function updateSubIssueTitle(
  port: GitHubPort,
  state: GoalState,
  todoKey: string,
): Promise<void> {
  const todo = state.todos.find((t) => t.key === todoKey);
  if (!todo?.subIssue) return;
  const issue = {
    owner: state.goal.repo.owner,
    repo: state.goal.repo.name,
    number: todo.subIssue.number,
  };
  const title = subIssueTitle(todo);
  if ((await port.getIssue(issue)).title === title) return;
  await port.setIssueTitle(issue, title);
}
