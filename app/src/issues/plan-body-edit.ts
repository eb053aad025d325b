import {
  completeTodoByHuman,
  type GoalState,
  refreshProjections,
  reopenTodo,
  requestReplan,
} from "@loopx/core";
import { type IssueRef, neutralizeInline, spliceManagedBlock } from "@loopx/github";
import { chainTransitions, type Step, withEffects } from "../intake/chain-transitions.ts";
import { type IntakePlan, ignore, reply } from "../intake/intake-plan.ts";
import { type BodyEdit, blockOf } from "./body-edit.ts";

/** What the handler found out about a person's `issues.edited` on a goal issue. */
export interface BodyEditFacts {
  issue: IssueRef;
  repo: { id: number; fullName: string };
  goal: GoalState;
  deliveryId: string;
  sender: { login: string; type: string };
  /** Null when the edit did not touch the body. */
  edit: BodyEdit | null;
  titleChanged: boolean;
  trusted: boolean;
  /** The database's date (YYYY-MM-DD): one refusal reply per person per day. */
  today: string;
}

/**
 * A person's edit. A writer's: ticks and unticks in the managed block complete or reopen
 * todos (with a receipt), other changes in the block are re-rendered, and changes to the
 * title or the author's text ask for a replan. Anyone else's edit inside the block is
 * reverted, with one reply per person per day if they ticked a box (none to a bot); their
 * text outside it is theirs and not ours.
 */
export function planBodyEdit(f: BodyEditFacts): IntakePlan {
  const edit = f.edit ?? { ticked: [], unticked: [], blockChanged: false, outsideChanged: false };
  if (!edit.blockChanged && !edit.outsideChanged && !f.titleChanged) {
    return ignore("nothing LoopX reads changed");
  }
  const login = f.sender.login;
  if (f.trusted) return writerEdit(f, edit);
  if (!edit.blockChanged) return ignore(`edit by ${login}, outside the block`);
  const tried = edit.ticked.length + edit.unticked.length > 0;
  const to = { repoId: f.repo.id, login, lane: "loopx" as const };
  const refusal =
    tried && f.sender.type !== "Bot"
      ? [
          reply(
            f.issue,
            `checkbox-refused:${login}:${f.today}`,
            `@${login}, ticking LoopX's checklist takes write access to ` +
              `${neutralizeInline(f.repo.fullName)}, so your change was put back. If a todo ` +
              "is done, say so in a comment and a maintainer can tick it.",
            to,
          ),
        ]
      : [];
  const reason = `the checklist was edited by @${login}, without write access`;
  return {
    kind: "apply",
    actor: { kind: "human", login, trusted: false },
    transition: (s, ctx) => refreshProjections(s, { reason, body: true }, ctx),
    effects: refusal,
  };
}

function writerEdit(f: BodyEditFacts, edit: BodyEdit): IntakePlan {
  const login = f.sender.login;
  const steps: Step[] = [
    ...edit.ticked.map(
      (todo): Step =>
        (s, ctx) =>
          completeTodoByHuman(s, { todo }, ctx),
    ),
    ...edit.unticked.map(
      (todo): Step =>
        (s, ctx) =>
          reopenTodo(s, { todo }, ctx),
    ),
  ];
  if (edit.outsideChanged || f.titleChanged) {
    const what = [f.titleChanged ? "title" : null, edit.outsideChanged ? "description" : null]
      .filter((w) => w !== null)
      .join(" and ");
    // The objective stays the snapshot; a replan slice reads the issue as it is now.
    steps.push((s, ctx) =>
      requestReplan(s, { reason: `the issue's ${what} was edited by @${login}` }, ctx),
    );
  }
  // Whatever else changed in the block (or a tick that was refused) is rendered back.
  if (edit.blockChanged) {
    steps.push((s, ctx) =>
      refreshProjections(s, { reason: `checklist edited by @${login}`, body: true }, ctx),
    );
  }
  const receipted = withEffects(chainTransitions(steps), (r) => {
    const lines = r.events.flatMap((ev) => {
      const todo = typeof ev.data.todo === "string" ? ev.data.todo : null;
      if (todo === null) return [];
      if (ev.type === "todo.completed") return [`${todo} marked done by @${login}`];
      if (ev.type === "todo.reopened") return [`${todo} reopened by @${login}`];
      // Work still on its branch is done by its merge, not by a tick.
      if (ev.type === "todo.awaiting_pull_request") {
        return [`${todo} waits for its pull request to merge`];
      }
      return [];
    });
    if (lines.length === 0) return [];
    return [
      {
        kind: "receipt" as const,
        key: `receipt:checklist:${f.deliveryId}`,
        text: `${lines.join("; ")} (ticked in the checklist).`,
      },
    ];
  });
  return {
    kind: "apply",
    actor: { kind: "human", login, trusted: true },
    transition: receipted,
    effects: [],
  };
}

/** What the handler found out about the echo of the app's own body write. */
export interface OwnWriteFacts {
  issue: IssueRef;
  deliveryId: string;
  /** `changes.body.from`: the body GitHub says this write replaced (null/undefined: unchanged). */
  from: string | null | undefined;
  /** The body this write left. */
  wrote: string;
  /** What the app recorded of its latest body write (read before, wrote). */
  recorded: { readBody: string | null; wroteBody: string | null } | null;
  /** The body as it is now (read after the echo arrived); null when not read. */
  current: string | null;
}

/**
 * The echo of the app's own body write. PATCH has no compare-and-swap: if `changes.body.from`
 * is not the body the app read before writing, a person edited in between and the write
 * overwrote them. Their text (outside the block) is put back around the app's block — by the
 * outbox, which checks again that nobody edited since.
 */
export function planOwnWrite(f: OwnWriteFacts): IntakePlan {
  if (f.from === undefined || f.from === null) return ignore("own edit, body unchanged");
  if (f.recorded?.readBody == null || f.recorded.wroteBody !== f.wrote) {
    return ignore("own edit, not the latest body write");
  }
  if (f.from === f.recorded.readBody) return ignore("own edit, nothing overwritten");
  if (f.current !== f.wrote) {
    return ignore("own edit; the body changed again since, that edit stands");
  }
  const block = blockOf(f.wrote);
  if (block === null) return ignore("own edit without a block");
  const restored = spliceManagedBlock(f.from, block);
  if (restored === f.current) return ignore("own edit, nothing to restore");
  return ignore("own edit had overwritten a person's edit: restored", [
    {
      kind: "restore_body",
      key: `restore_body:${f.deliveryId}`,
      issue: f.issue,
      expected: f.current,
      body: restored,
    },
  ]);
}
