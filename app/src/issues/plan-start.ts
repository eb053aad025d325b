import { type GoalState, MAX_INITIAL_TODOS, resumeGoal } from "@loopx/core";
import { type IssueRef, neutralizeInline } from "@loopx/github";
import { type IntakePlan, ignore, reply } from "../intake/intake-plan.ts";

/** What the handler found out about an `issues.labeled` before deciding. */
export interface LabelFacts {
  issue: IssueRef;
  repo: { id: number; fullName: string };
  onPullRequest: boolean;
  /** The label added, and the one `.github/loopx.yml` names (its default when invalid). */
  added: string | null;
  goalLabel: string;
  sender: string;
  /** The sender's write access, read from GitHub at the time of the act. */
  trusted: boolean;
  existing: GoalState | null;
  /** Open items of the body's task list, when its author may instruct; else none. */
  openTodos: number;
  /** Why an open item's `paths:` clause is refused (the item and what would work). */
  pathsProblem?: string | null;
}

/** Start a new goal: the handler builds it (it needs the config and the clock). */
export type StartPlan = IntakePlan | { kind: "create" };

/**
 * The goal label: a writer starts a goal (or resumes the paused or stopped one — never a
 * second goal for one issue); anyone else gets one reply saying who can. A task list longer
 * than a goal starts with starts nothing and says so.
 */
export function planStart(f: LabelFacts): StartPlan {
  if (f.onPullRequest) return ignore("a pull request is not a goal");
  if (f.added !== f.goalLabel) return ignore(`label ${f.added ?? "(none)"} is not ${f.goalLabel}`);
  const to = { repoId: f.repo.id, login: f.sender, lane: "loopx" as const };
  if (!f.trusted) {
    return ignore(`label from ${f.sender}, who cannot start a goal`, [
      reply(
        f.issue,
        `label-refused:${f.sender}`,
        `The \`${f.goalLabel}\` label starts a LoopX goal only when someone with write access to ` +
          `${neutralizeInline(f.repo.fullName)} adds it. Nothing was started; ask a ` +
          "maintainer to add the label.",
        to,
      ),
    ]);
  }
  if (f.existing) {
    const status = f.existing.goal.status;
    if (status !== "paused" && status !== "stopped") return ignore(`goal already ${status}`);
    const reason = `relabelled by ${f.sender}`;
    return {
      kind: "apply",
      actor: { kind: "human", login: f.sender, trusted: true },
      transition: (s, ctx) => resumeGoal(s, { reason }, ctx),
      effects: [],
    };
  }
  if (f.openTodos > MAX_INITIAL_TODOS) {
    return ignore(`a task list of ${f.openTodos} open items`, [
      reply(
        f.issue,
        `task-list-too-long:${f.issue.number}`,
        `The task list in this issue has ${f.openTodos} open items; a goal starts with at most ` +
          `${MAX_INITIAL_TODOS} todos. Nothing was started: split the work into several issues, ` +
          "or shorten the list, then add the label again.",
        to,
      ),
    ]);
  }
  if (f.pathsProblem) {
    return ignore("a task-list item with paths that are not the repository's", [
      reply(
        f.issue,
        `task-list-paths:${f.issue.number}`,
        `${neutralizeInline(f.pathsProblem, 600)} Nothing was started: fix that item's \`paths:\`, then add the label again.`,
        to,
      ),
    ]);
  }
  return { kind: "create" };
}
