import { type GoalState, pauseGoal, settleTodoFromSubIssue, stopGoal } from "@loopx/core";
import type { IssueRef } from "@loopx/github";
import { type IntakePlan, ignore, reply } from "../intake/intake-plan.ts";

/**
 * `issues.reopened` on a goal issue: never resumes by itself; one comment per reopening of
 * the goal's state (keyed by its version) says how.
 */
export function planReopened(f: {
  issue: IssueRef;
  repoId: number;
  sender: string;
  goal: GoalState | null;
}): IntakePlan {
  if (f.goal === null) return ignore("not a goal issue");
  const { status, version } = f.goal.goal;
  if (status === "active") return ignore("goal active");
  const text =
    status === "done"
      ? "This issue was reopened, but its LoopX goal is finished and stays so. To start new " +
        "work, open a new issue and add the LoopX label to it."
      : `This issue was reopened; its LoopX goal stays ${status} until someone with write ` +
        "access comments `/loopx resume`.";
  const to = { repoId: f.repoId, login: f.sender, lane: "loopx" as const };
  return ignore(`reopened; goal stays ${status}, asked for /loopx resume`, [
    reply(f.issue, `reopened:v${version}`, text, to),
  ]);
}

/** What the handler found out about a closed todo sub-issue before deciding. */
export interface SubIssueCloseFacts {
  /** The sub-issue itself (the reply goes there). */
  issue: IssueRef;
  repoId: number;
  goal: GoalState;
  todo: string;
  sender: { login: string; type: string };
  /** The app closed it itself (it completed the todo). */
  byLoopx: boolean;
  trusted: boolean;
  stateReason: string | null;
}

/**
 * A todo's sub-issue was closed. By a writer: as completed the todo is done, as not planned
 * (or duplicate) it is dropped. LoopX's own close is ignored; anyone else's close leaves the
 * todo as it is, with one reply per person saying so (none to a bot).
 */
export function planSubIssueClosed(f: SubIssueCloseFacts): IntakePlan {
  if (f.byLoopx) return ignore("closed by LoopX itself");
  if (!f.trusted) {
    const why = `sub-issue closed by ${f.sender.login}, who has no write access`;
    if (f.sender.type === "Bot") return ignore(why);
    const to = { repoId: f.repoId, login: f.sender.login, lane: "loopx" as const };
    return ignore(why, [
      reply(
        f.issue,
        `sub-issue-close-refused:${f.sender.login}`,
        `Closing this issue settles ${f.todo} of the LoopX goal #${f.goal.goal.issue.number} ` +
          "only when someone with write access closes it, so the todo stays open. A maintainer " +
          "can close it again, or tick it in the goal's checklist.",
        to,
      ),
    ]);
  }
  const outcome = f.stateReason === "completed" ? "completed" : "not_planned";
  return {
    kind: "apply",
    actor: { kind: "human", login: f.sender.login, trusted: true },
    transition: (s, ctx) => settleTodoFromSubIssue(s, { todo: f.todo, outcome }, ctx),
    effects: [],
  };
}

/**
 * `issues.closed` on a goal issue: a person closing it stops the goal (only LoopX closes a
 * finished goal's issue, and its own close is ignored). Closing is a fact GitHub reports,
 * whoever may close (the author, triage): stopping is the safe reading of it. Resuming
 * takes a writer's `/loopx resume`.
 */
export function planClosed(f: { goal: GoalState; sender: string; byLoopx: boolean }): IntakePlan {
  if (f.byLoopx) return ignore("closed by LoopX itself");
  const status = f.goal.goal.status;
  if (status !== "active" && status !== "paused") return ignore(`goal already ${status}`);
  const reason = `issue closed by @${f.sender}`;
  return {
    kind: "apply",
    actor: { kind: "system", reason },
    transition: (s, ctx) =>
      stopGoal(
        s,
        { reason: `${reason}; reopen it and comment \`/loopx resume\` to continue` },
        ctx,
      ),
    effects: [],
  };
}

/** `issues.unlabeled`: a writer removing the goal label pauses the goal; anyone else, nothing. */
export function planUnlabeled(f: {
  goal: GoalState | null;
  removed: string | null;
  goalLabel: string;
  sender: string;
  trusted: boolean;
}): IntakePlan {
  if (f.goal === null) return ignore("not a goal issue");
  if (f.removed !== f.goalLabel)
    return ignore(`label ${f.removed ?? "(none)"} is not ${f.goalLabel}`);
  if (f.goal.goal.status !== "active") return ignore(`goal ${f.goal.goal.status}`);
  if (!f.trusted) return ignore(`label removed by ${f.sender}, who has no write access`);
  const reason = `the \`${f.goalLabel}\` label was removed by @${f.sender}; add it again to resume`;
  return {
    kind: "apply",
    actor: { kind: "human", login: f.sender, trusted: true },
    transition: (s, ctx) => pauseGoal(s, { reason }, ctx),
    effects: [],
  };
}
