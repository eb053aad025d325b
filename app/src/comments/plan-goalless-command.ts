import { MAX_INITIAL_TODOS } from "@loopx/core";
import { type Command, HELP_TEXT, type IssueRef } from "@loopx/github";
import { type Addressee, ignore, react, replyToComment } from "../intake/intake-plan.ts";
import type { StartPlan } from "../issues/plan-start.ts";

/** What the handler found out about a `help` or `start` command where there is no goal. */
export interface GoallessCommandFacts {
  issue: IssueRef;
  repo: { id: number; fullName: string };
  commentId: number;
  /** The command's line, as typed (quoted back, neutralised). */
  typed: string;
  author: string;
  onPullRequest: boolean;
  /** Write access, read from GitHub at the time of the act. */
  trusted: boolean;
  command: Extract<Command, { name: "help" | "start" }>;
  /** Open items of the issue's task list, when its author may instruct; else none. */
  openTodos: number;
  /** Why an open item's `paths:` clause is refused (the item and what would work). */
  pathsProblem?: string | null;
}

export const HELP_INTRO = "Here is what LoopX understands.";

/**
 * `/loopx help` and `/loopx start` on an issue or pull request with no goal. Help is
 * answered everywhere: a writer's from LoopX's own allowance (seen, answered, done), anyone
 * else's from the outsiders' allowance. A writer's start on an issue starts a goal exactly
 * as the label does; on a pull request, or by anyone else, nothing starts and they are told.
 */
export function planGoallessCommand(f: GoallessCommandFacts): StartPlan {
  const to: Addressee = {
    repoId: f.repo.id,
    login: f.author,
    lane: f.trusted ? "loopx" : "outsider",
  };
  const answer = (message: string, help?: string) =>
    replyToComment(f.issue, f.commentId, f.typed, to, message, help);
  const seen = react(f.issue, f.commentId, "eyes");
  const done = react(f.issue, f.commentId, "+1");
  if (f.command.name === "help") {
    const reply = answer(HELP_INTRO, HELP_TEXT);
    return ignore("help", f.trusted ? [seen, reply, done] : [reply]);
  }
  if (!f.trusted) {
    return ignore(`start from ${f.author}, who cannot start a goal`, [
      answer(
        `Starting a LoopX goal takes write access to ${f.repo.fullName}; ${f.author} does not have it, so nothing was started. Ask a maintainer to comment \`/loopx start\` or add the LoopX label.`,
      ),
    ]);
  }
  if (f.onPullRequest) {
    return ignore("start on a pull request", [
      seen,
      answer(
        "A pull request cannot be a LoopX goal, so nothing was started. Open an issue for the work and comment `/loopx start` there.",
      ),
    ]);
  }
  if (f.openTodos > MAX_INITIAL_TODOS) {
    return ignore(`a task list of ${f.openTodos} open items`, [
      seen,
      answer(
        `The task list in this issue has ${f.openTodos} open items; a goal starts with at most ${MAX_INITIAL_TODOS} todos. Nothing was started: split the work into several issues, or shorten the list, then comment \`/loopx start\` again.`,
      ),
    ]);
  }
  if (f.pathsProblem) {
    return ignore("a task-list item with paths that are not the repository's", [
      seen,
      answer(
        `${f.pathsProblem} Nothing was started: fix that item's \`paths:\`, then comment \`/loopx start\` again.`,
      ),
    ]);
  }
  return { kind: "create" };
}
