import { settleTodoFromSubIssue, unlinkSubIssue } from "@loopx/core";
import type { Delivery } from "@loopx/store";
import { actorFor } from "../authority.ts";
import type { AppDeps } from "../deps.ts";
import type { IssuesEvent, SubIssuesEvent } from "../webhooks/payloads.ts";
import { applyForDelivery, issueRef, outcomeOf, repoName } from "./goal-context.ts";
import { ignored, type Outcome } from "./outcome.ts";

/**
 * A todo's sub-issue was closed. By a writer: as completed the todo is done, as not planned
 * (or duplicate) it is dropped. LoopX's own close (it completed the todo) is ignored; anyone
 * else's close leaves the todo as it is, with one reply saying so.
 */
export async function subIssueClosed(
  deps: AppDeps,
  delivery: Delivery,
  e: IssuesEvent,
): Promise<Outcome> {
  const found = await deps.store.findBySubIssue(e.issue.id);
  if (!found) return ignored("neither a goal issue nor a todo's sub-issue");
  const goal = await deps.store.loadGoal(found.goalId);
  if (!goal) return ignored("the goal is gone");
  const port = await deps.portFor(e.installation.id);
  if (e.sender.login === (await port.botLogin())) return ignored("closed by LoopX itself");
  const repo = repoName(e.repository);
  const actor = await actorFor(port, repo, e.sender);
  if (!actor.trusted) {
    if (e.sender.type !== "Bot") {
      await port.ensureComment(
        issueRef(e.repository, e.issue.number),
        `sub-issue-close-refused:${e.sender.login}`,
        `Closing this issue settles ${found.todo} of the LoopX goal #${goal.goal.issue.number} ` +
          "only when someone with write access closes it, so the todo stays open. A maintainer " +
          "can close it again, or tick it in the goal's checklist.",
      );
    }
    return ignored(`sub-issue closed by ${e.sender.login}, who has no write access`);
  }
  const outcome = e.issue.state_reason === "completed" ? "completed" : "not_planned";
  const r = await applyForDelivery(deps, goal, delivery.deliveryId, actor, (s, ctx) =>
    settleTodoFromSubIssue(s, { todo: found.todo, outcome }, ctx),
  );
  return outcomeOf(r);
}

/**
 * `sub_issues.sub_issue_removed` on a goal issue: a person unlinked a todo's sub-issue. The
 * todo stays in the plan; only the link goes.
 */
export async function subIssueRemoved(
  deps: AppDeps,
  delivery: Delivery,
  e: SubIssuesEvent,
): Promise<Outcome> {
  const goal = await deps.store.findGoalByIssue(e.repository.id, e.parent_issue.number);
  if (!goal) return ignored("the parent is not a goal issue");
  const todo = goal.todos.find((t) => t.subIssue?.id === e.sub_issue.id);
  if (!todo) return ignored("not a todo's sub-issue");
  const port = await deps.portFor(e.installation.id);
  if (e.sender.login === (await port.botLogin())) return ignored("unlinked by LoopX itself");
  const reason = `sub-issue #${e.sub_issue.number} unlinked by @${e.sender.login}`;
  const r = await applyForDelivery(
    deps,
    goal,
    delivery.deliveryId,
    { kind: "system", reason },
    (s, ctx) => unlinkSubIssue(s, { todo: todo.key }, ctx),
  );
  return outcomeOf(r);
}
