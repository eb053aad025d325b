import { unlinkSubIssue } from "@loopx/core";
import type { Delivery } from "@loopx/store";
import { actorFor } from "../authority.ts";
import type { AppDeps } from "../deps.ts";
import { commitPlan } from "../intake/commit-plan.ts";
import { applyForDelivery, issueRef, outcomeOf, repoName } from "../intake/goal-context.ts";
import { ignored, type Outcome } from "../webhooks/outcome.ts";
import type { IssuesEvent, SubIssuesEvent } from "./issue-payloads.ts";
import { planSubIssueClosed } from "./plan-issue-state.ts";

/** A todo's sub-issue was closed: see planSubIssueClosed. */
export async function subIssueClosed(
  deps: AppDeps,
  delivery: Delivery,
  e: IssuesEvent,
): Promise<Outcome> {
  const found = await deps.store.findBySubIssue(e.issue.id);
  if (!found) return ignored("neither a goal issue nor a todo's sub-issue");
  const goal = await deps.store.loadGoal(found.goalId);
  if (!goal) return ignored("the goal is gone");
  const port = await deps.readsFor(e.installation.id);
  const byLoopx = e.sender.login === (await port.botLogin());
  const actor = byLoopx ? null : await actorFor(port, repoName(e.repository), e.sender);
  const plan = planSubIssueClosed({
    issue: issueRef(e.repository, e.issue.number),
    repoId: e.repository.id,
    goal,
    todo: found.todo,
    sender: e.sender,
    byLoopx,
    trusted: actor?.trusted === true,
    stateReason: e.issue.state_reason ?? null,
  });
  return commitPlan(deps, delivery, { installationId: e.installation.id, goal }, plan);
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
