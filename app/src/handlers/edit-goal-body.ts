import {
  completeTodoByHuman,
  type GoalState,
  refreshProjections,
  reopenTodo,
  requestReplan,
} from "@loopx/core";
import { type GitHubPort, neutralizeInline, spliceManagedBlock } from "@loopx/github";
import type { Delivery } from "@loopx/store";
import { actorFor, type HumanActor } from "../authority.ts";
import type { AppDeps } from "../deps.ts";
import type { IssuesEvent } from "../webhooks/payloads.ts";
import { blockOf, readBodyEdit } from "./body-edit.ts";
import { chainTransitions, type Step, withEffects } from "./chain-transitions.ts";
import { applyForDelivery, issueRef, outcomeOf, repoName } from "./goal-context.ts";
import { ignored, type Outcome } from "./outcome.ts";

/**
 * `issues.edited` on a goal issue. The app's own edit: check that it overwrote nothing (and
 * restore what it did). A writer's edit: ticks and unticks in the managed block complete or
 * reopen todos (with a receipt), other changes in the block are re-rendered, and changes to
 * the title or the author's text ask for a replan. Anyone else's edit inside the block is
 * reverted (one reply per person per day); their text outside it is theirs and not ours.
 */
export async function editGoalBody(
  deps: AppDeps,
  delivery: Delivery,
  e: IssuesEvent,
): Promise<Outcome> {
  if (e.issue.pull_request !== undefined) return ignored("a pull request is not a goal");
  const goal = await deps.store.findGoalByIssue(e.repository.id, e.issue.number);
  if (!goal) return ignored("not a goal issue");
  const port = await deps.portFor(e.installation.id);
  if (e.sender.login === (await port.botLogin())) return checkOwnWrite(deps, port, goal, e);

  const from = e.changes?.body?.from;
  const edit =
    from === undefined
      ? { ticked: [], unticked: [], blockChanged: false, outsideChanged: false }
      : readBodyEdit(from ?? "", e.issue.body ?? "");
  const titleChanged = e.changes?.title !== undefined;
  if (!edit.blockChanged && !edit.outsideChanged && !titleChanged) {
    return ignored("nothing LoopX reads changed");
  }
  const repo = repoName(e.repository);
  const actor = await actorFor(port, repo, e.sender);
  if (actor.trusted) return writerEdit(deps, delivery, goal, actor, edit, titleChanged);

  if (!edit.blockChanged) return ignored(`edit by ${e.sender.login}, outside the block`);
  const tried = edit.ticked.length + edit.unticked.length > 0;
  if (tried && e.sender.type !== "Bot") {
    // Commented first: ensureComment is keyed, so a retry after a crash cannot post twice.
    const day = (await deps.store.databaseNow()).toISOString().slice(0, 10);
    await port.ensureComment(
      issueRef(e.repository, e.issue.number),
      `checkbox-refused:${e.sender.login}:${day}`,
      `@${e.sender.login}, ticking LoopX's checklist takes write access to ` +
        `${neutralizeInline(e.repository.full_name)}, so your change was put back. If a todo ` +
        "is done, say so in a comment and a maintainer can tick it.",
    );
  }
  const r = await applyForDelivery(deps, goal, delivery.deliveryId, actor, (s, ctx) =>
    refreshProjections(
      s,
      {
        reason: `the checklist was edited by @${e.sender.login}, without write access`,
        body: true,
      },
      ctx,
    ),
  );
  return outcomeOf(r);
}

function writerEdit(
  deps: AppDeps,
  delivery: Delivery,
  goal: GoalState,
  actor: HumanActor,
  edit: ReturnType<typeof readBodyEdit>,
  titleChanged: boolean,
): Promise<Outcome> {
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
  if (edit.outsideChanged || titleChanged) {
    const what = [titleChanged ? "title" : null, edit.outsideChanged ? "description" : null]
      .filter((w) => w !== null)
      .join(" and ");
    // The objective stays the snapshot; a replan slice reads the issue as it is now.
    steps.push((s, ctx) =>
      requestReplan(s, { reason: `the issue's ${what} was edited by @${actor.login}` }, ctx),
    );
  }
  // Whatever else changed in the block (or a tick that was refused) is rendered back.
  if (edit.blockChanged) {
    steps.push((s, ctx) =>
      refreshProjections(s, { reason: `checklist edited by @${actor.login}`, body: true }, ctx),
    );
  }
  const receipted = withEffects(chainTransitions(steps), (r) => {
    const lines = r.events.flatMap((ev) => {
      const todo = typeof ev.data.todo === "string" ? ev.data.todo : null;
      if (todo === null) return [];
      if (ev.type === "todo.completed") return [`${todo} marked done by @${actor.login}`];
      if (ev.type === "todo.reopened") return [`${todo} reopened by @${actor.login}`];
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
        key: `receipt:checklist:${delivery.deliveryId}`,
        text: `${lines.join("; ")} (ticked in the checklist).`,
      },
    ];
  });
  return applyForDelivery(deps, goal, delivery.deliveryId, actor, receipted).then(outcomeOf);
}

/**
 * The echo of the app's own body write. PATCH has no compare-and-swap: if `changes.body.from`
 * is not the body the app read before writing, a person edited in between and the write
 * overwrote them. Their text (outside the block) is put back around the app's block.
 */
async function checkOwnWrite(
  deps: AppDeps,
  port: GitHubPort,
  goal: GoalState,
  e: IssuesEvent,
): Promise<Outcome> {
  const from = e.changes?.body?.from;
  if (from === undefined || from === null) return ignored("own edit, body unchanged");
  const recorded = await deps.store.getProjection(goal.goal.id, "body");
  const wrote = e.issue.body ?? "";
  if (recorded?.readBody == null || recorded.wroteBody !== wrote) {
    return ignored("own edit, not the latest body write");
  }
  if (from === recorded.readBody) return ignored("own edit, nothing overwritten");
  const issue = issueRef(e.repository, e.issue.number);
  const current = (await port.getIssue(issue)).body;
  if (current !== wrote) return ignored("own edit; the body changed again since, that edit stands");
  const block = blockOf(wrote);
  if (block === null) return ignored("own edit without a block");
  const restored = spliceManagedBlock(from, block);
  if (restored === current) return ignored("own edit, nothing to restore");
  await deps.store.setProjection(goal.goal.id, "body", { readBody: current, wroteBody: restored });
  await port.setIssueBody(issue, restored);
  deps.log.info(`restored text a person wrote on #${issue.number} while LoopX wrote the checklist`);
  return ignored("own edit had overwritten a person's edit: restored");
}
