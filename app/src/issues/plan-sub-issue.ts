import {
  adoptSubIssue,
  type GoalState,
  linkSubIssue,
  queueNote,
  reopenTodo,
  retitleTodoFromSubIssue,
  todoTitleFrom,
} from "@loopx/core";
import { type IssueRef, neutralizeInline } from "@loopx/github";
import { type IntakePlan, ignore, reply } from "../intake/intake-plan.ts";

/** Who acted on a sub-issue, as the handler found out. */
export interface SubIssueActor {
  sender: { login: string; type: string };
  /** The App's own bot did it (an echo of its own write). */
  byLoopx: boolean;
  /** Write access, read from GitHub at the time of the act. */
  trusted: boolean;
}

const outsider = (repoId: number, login: string) => ({
  repoId,
  login,
  lane: "outsider" as const,
});

/** A non-writer's act gets one reply per person (none to a bot), from the outsiders' allowance. */
function refuseOutsider(
  f: SubIssueActor & { issue: IssueRef; repoId: number },
  why: string,
  key: string,
  text: string,
): IntakePlan {
  if (f.sender.type === "Bot") return ignore(why);
  return ignore(why, [
    reply(f.issue, `${key}:${f.sender.login}`, text, outsider(f.repoId, f.sender.login)),
  ]);
}

export interface SubIssueReopenFacts extends SubIssueActor {
  issue: IssueRef;
  repoId: number;
  goal: GoalState;
  todo: GoalState["todos"][number];
}

/**
 * A todo's sub-issue was reopened. By a writer: the todo is open again (ready), as a tick
 * in the checklist would reopen it. A finished goal stays finished — its report is made and
 * its issue closed — so the writer is told to start new work instead. LoopX's own reopen is
 * ignored; anyone else's changes nothing and is answered once.
 */
export function planSubIssueReopened(f: SubIssueReopenFacts): IntakePlan {
  if (f.byLoopx) return ignore("reopened by LoopX itself");
  const goalNumber = f.goal.goal.issue.number;
  if (!f.trusted) {
    return refuseOutsider(
      f,
      `sub-issue reopened by ${f.sender.login}, who has no write access`,
      "sub-issue-reopen-refused",
      `Reopening this issue reopens ${f.todo.key} of the LoopX goal #${goalNumber} only when ` +
        "someone with write access reopens it, so the todo stays done. If the work is not " +
        "finished, say so in a comment and a maintainer can reopen it.",
    );
  }
  if (f.todo.status !== "done" && f.todo.status !== "dropped") {
    return ignore(`${f.todo.key} is ${f.todo.status}, already open`);
  }
  const status = f.goal.goal.status;
  if (status === "done") {
    return ignore(`goal ${status}; ${f.todo.key} stays ${f.todo.status}`, [
      reply(
        f.issue,
        `sub-issue-reopen-finished:${f.todo.key}:v${f.goal.goal.version}`,
        `The LoopX goal #${goalNumber} is ${status}, so reopening this issue does not reopen ` +
          `${f.todo.key}. To do more work, open a new issue and start a goal on it.`,
        { repoId: f.repoId, login: f.sender.login, lane: "loopx" },
      ),
    ]);
  }
  return {
    kind: "apply",
    actor: { kind: "human", login: f.sender.login, trusted: true },
    transition: (s, ctx) => reopenTodo(s, { todo: f.todo.key }, ctx),
    effects: [],
  };
}

export interface SubIssueLinkFacts extends SubIssueActor {
  /** The goal issue (a refusal is answered there, where the link was made). */
  parent: IssueRef;
  repoId: number;
  goal: GoalState;
  sub: { id: number; number: number; title: string; open: boolean };
  /** The todo of this goal whose key is hidden in the issue's body (LoopX created it). */
  keyedTodo: string | null;
  /** Whether the issue's author has write access (their title may instruct). */
  authorTrusted: boolean;
}

/**
 * An existing issue was linked as a sub-issue of a goal issue. LoopX's own links are
 * ignored (it records them when it creates them). A writer's link adds a todo titled as the
 * issue is, or links back the todo LoopX created the issue for; a closed issue adds nothing.
 * Anyone else's link adds nothing and is answered once.
 */
export function planSubIssueLinked(f: SubIssueLinkFacts): IntakePlan {
  if (f.byLoopx) return ignore("linked by LoopX itself");
  const number = f.sub.number;
  if (!f.trusted) {
    return refuseOutsider(
      { ...f, issue: f.parent },
      `sub-issue #${number} linked by ${f.sender.login}, who has no write access`,
      `sub-issue-link-refused:${number}`,
      `Linking #${number} here adds a todo to this LoopX goal only when someone with write ` +
        "access links it, so nothing was added. A maintainer can link it again.",
    );
  }
  const linked = f.goal.todos.find((t) => t.subIssue?.id === f.sub.id);
  if (linked) return ignore(`#${number} is already ${linked.key}'s sub-issue`);
  const keyed = f.goal.todos.find((t) => t.key === f.keyedTodo && t.subIssue === null);
  if (keyed) {
    return {
      kind: "apply",
      actor: { kind: "system", reason: `sub-issue #${number} linked back by @${f.sender.login}` },
      transition: (s, ctx) => linkSubIssue(s, { todo: keyed.key, id: f.sub.id, number }, ctx),
      effects: [],
    };
  }
  if (!f.sub.open) return ignore(`#${number} is closed: no work to add`);
  return {
    kind: "apply",
    actor: { kind: "human", login: f.sender.login, trusted: true },
    transition: (s, ctx) =>
      adoptSubIssue(
        s,
        { id: f.sub.id, number, title: f.sub.title, authorTrusted: f.authorTrusted },
        ctx,
      ),
    effects: [],
  };
}

export interface SubIssueRetitleFacts extends SubIssueActor {
  issue: IssueRef;
  goal: GoalState;
  todo: GoalState["todos"][number];
  title: string;
}

/**
 * A todo's sub-issue was retitled. LoopX's own write (the echo of a rename it made) is
 * ignored, so sync never loops. A writer's title renames the todo. Anyone else's title is
 * not the todo's: it is kept as their note, which briefs show only as fenced data.
 */
export function planSubIssueRetitled(f: SubIssueRetitleFacts): IntakePlan {
  if (f.byLoopx) return ignore("retitled by LoopX itself");
  const title = todoTitleFrom(f.todo, f.title);
  if (f.trusted) {
    if (title === f.todo.title) return ignore(`${f.todo.key}'s title is unchanged`);
    return {
      kind: "apply",
      actor: { kind: "human", login: f.sender.login, trusted: true },
      transition: (s, ctx) => retitleTodoFromSubIssue(s, { todo: f.todo.key, title }, ctx),
      effects: [],
    };
  }
  if (f.sender.type === "Bot") return ignore(`retitled by ${f.sender.login}, a bot`);
  const text =
    `@${f.sender.login} (no write access) retitled sub-issue #${f.issue.number} of ` +
    `${f.todo.key} to: ${neutralizeInline(f.title, 300)}`;
  return {
    kind: "apply",
    actor: { kind: "human", login: f.sender.login, trusted: false },
    transition: (s, ctx) => queueNote(s, { text }, ctx),
    effects: [],
  };
}
