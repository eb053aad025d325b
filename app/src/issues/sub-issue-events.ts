import { type GoalState, unlinkSubIssue } from "@loopx/core";
import { readKey } from "@loopx/github";
import { type Delivery, FULL_WINDOW } from "@loopx/store";
import { actorFor } from "../authority.ts";
import type { AppDeps } from "../deps.ts";
import { commitPlan } from "../intake/commit-plan.ts";
import { applyForDelivery, issueRef, outcomeOf, repoName } from "../intake/goal-context.ts";
import type { IntakePlan } from "../intake/intake-plan.ts";
import { subIssueKey } from "../outbox/create-sub-issue.ts";
import { ignored, type Outcome } from "../webhooks/outcome.ts";
import type { IssuesEvent, SubIssuesEvent } from "./issue-payloads.ts";
import { planSubIssueClosed } from "./plan-issue-state.ts";
import {
  planSubIssueLinked,
  planSubIssueReopened,
  planSubIssueRetitled,
  type SubIssueActor,
} from "./plan-sub-issue.ts";

type TodoOf = GoalState["todos"][number];

/**
 * An `issues` delivery about a todo's sub-issue: finds its goal and todo and who acted (the
 * App's own bot, or a person whose write access is read only when it is not the bot), then
 * commits what `plan` decides.
 */
async function onTodoSubIssue(
  deps: AppDeps,
  delivery: Delivery,
  e: IssuesEvent,
  plan: (goal: GoalState, todo: TodoOf, who: SubIssueActor) => IntakePlan,
): Promise<Outcome> {
  const found = await deps.store.findBySubIssue(e.issue.id);
  if (!found) return ignored("neither a goal issue nor a todo's sub-issue");
  // Whole: the todo may be long finished, beyond the window a transition loads.
  const goal = await deps.store.loadGoal(found.goalId, FULL_WINDOW);
  if (!goal) return ignored("the goal is gone");
  const todo = goal.todos.find((t) => t.key === found.todo);
  if (!todo) return ignored("the todo is gone");
  const port = await deps.readsFor(e.installation.id);
  const byLoopx = e.sender.login === (await port.botLogin());
  const actor = byLoopx ? null : await actorFor(port, repoName(e.repository), e.sender);
  const who = { sender: e.sender, byLoopx, trusted: actor?.trusted === true };
  const about = { installationId: e.installation.id, goal };
  return commitPlan(deps, delivery, about, plan(goal, todo, who));
}

/** A todo's sub-issue was closed: see planSubIssueClosed. */
export function subIssueClosed(deps: AppDeps, delivery: Delivery, e: IssuesEvent) {
  return onTodoSubIssue(deps, delivery, e, (goal, todo, who) =>
    planSubIssueClosed({
      issue: issueRef(e.repository, e.issue.number),
      repoId: e.repository.id,
      goal,
      todo: todo.key,
      ...who,
      stateReason: e.issue.state_reason ?? null,
    }),
  );
}

/** A todo's sub-issue was reopened: see planSubIssueReopened. */
export function subIssueReopened(deps: AppDeps, delivery: Delivery, e: IssuesEvent) {
  return onTodoSubIssue(deps, delivery, e, (goal, todo, who) =>
    planSubIssueReopened({
      issue: issueRef(e.repository, e.issue.number),
      repoId: e.repository.id,
      goal,
      todo,
      ...who,
    }),
  );
}

/** A todo's sub-issue was retitled (`issues.edited` with `changes.title`): see planSubIssueRetitled. */
export function subIssueRetitled(deps: AppDeps, delivery: Delivery, e: IssuesEvent) {
  if (e.changes?.title === undefined) return Promise.resolve(ignored("the title did not change"));
  return onTodoSubIssue(deps, delivery, e, (goal, todo, who) =>
    planSubIssueRetitled({
      issue: issueRef(e.repository, e.issue.number),
      goal,
      todo,
      title: e.issue.title,
      ...who,
    }),
  );
}

/** `sub_issues.sub_issue_added` on a goal issue: see planSubIssueLinked. */
export async function subIssueAdded(
  deps: AppDeps,
  delivery: Delivery,
  e: SubIssuesEvent,
): Promise<Outcome> {
  const goal = await wholeGoalOf(deps, e);
  if (!goal) return ignored("the parent is not a goal issue");
  const port = await deps.readsFor(e.installation.id);
  const byLoopx = e.sender.login === (await port.botLogin());
  const repo = repoName(e.repository);
  const trusted = !byLoopx && (await actorFor(port, repo, e.sender)).trusted;
  const sub = e.sub_issue;
  const author = sub.user ?? { login: "ghost", type: "User" };
  // The title instructs only if its author could have linked it too.
  const authorTrusted =
    trusted &&
    (author.login === e.sender.login ||
      (await actorFor(port, repo, { login: author.login, type: author.type ?? "User" })).trusted);
  const plan = planSubIssueLinked({
    parent: issueRef(e.repository, e.parent_issue.number),
    repoId: e.repository.id,
    goal,
    sub: { id: sub.id, number: sub.number, title: sub.title, open: sub.state === "open" },
    keyedTodo: keyedTodo(goal, sub.body ?? ""),
    authorTrusted,
    sender: e.sender,
    byLoopx,
    trusted,
  });
  return commitPlan(deps, delivery, { installationId: e.installation.id, goal }, plan);
}

/** The todo whose key LoopX hid in the body of the sub-issue it created, if any. */
function keyedTodo(goal: GoalState, body: string): string | null {
  const key = readKey(body);
  const prefix = subIssueKey(goal, "");
  return key?.startsWith(prefix) ? key.slice(prefix.length) : null;
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
  const goal = await wholeGoalOf(deps, e);
  if (!goal) return ignored("the parent is not a goal issue");
  const todo = goal.todos.find((t) => t.subIssue?.id === e.sub_issue.id);
  if (!todo) return ignored("not a todo's sub-issue");
  const port = await deps.readsFor(e.installation.id);
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

/** The parent's goal with every todo: a link or unlink may name one finished long ago. */
async function wholeGoalOf(deps: AppDeps, e: SubIssuesEvent): Promise<GoalState | null> {
  const found = await deps.store.findGoalByIssue(e.repository.id, e.parent_issue.number);
  return found && deps.store.loadGoal(found.goal.id, FULL_WINDOW);
}
