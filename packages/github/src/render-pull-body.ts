import type { GoalState, Todo } from "@loopx/core";
import { neutralizeInline } from "./neutralize.ts";
import { GITHUB_BODY_LIMIT, truncateBody } from "./truncate-body.ts";

/**
 * Breaks `#123` issue references in text LoopX did not write: a todo titled "fixes #42"
 * must not let GitHub close the goal issue (only LoopX closes it) or any other issue.
 */
export function breakIssueRefs(text: string): string {
  return text.replace(/#(?=\d)/g, "#\u200b");
}

/** The PR's title: the todo it serves. */
export function renderPullTitle(todo: Todo): string {
  return breakIssueRefs(neutralizeInline(`${todo.key}: ${todo.title}`, 240));
}

/**
 * The body of a PR LoopX opens for a todo. It says `Fixes #<sub-issue>` only when the todo
 * is a sub-issue, and always `Refs #<goal>` — never `Fixes #<goal>`: merging one PR must not
 * close the goal; LoopX closes it when nothing remains.
 */
export function renderPullBody(state: GoalState, todo: Todo): string {
  const goal = state.goal;
  const lines = [
    `LoopX opened this pull request for **${breakIssueRefs(neutralizeInline(todo.key))}** of goal #${goal.issue.number}: ${breakIssueRefs(neutralizeInline(todo.title, 200))}.`,
    "",
  ];
  if (todo.subIssue) lines.push(`Fixes #${todo.subIssue.number}`);
  lines.push(`Refs #${goal.issue.number}`);
  lines.push(
    "",
    "Merging is a person's act: LoopX never merges. When the checks are green and no changes are requested, a `merge` gate asks the goal's owners to approve the current head.",
  );
  return truncateBody(lines.join("\n"), GITHUB_BODY_LIMIT - 200);
}
