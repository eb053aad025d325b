import type { GoalState } from "@loopx/core";
import type { GitHubReads } from "@loopx/github";
import type { Delivery } from "@loopx/store";
import { actorFor } from "../authority.ts";
import type { AppDeps } from "../deps.ts";
import { commitPlan } from "../intake/commit-plan.ts";
import { issueRef, repoName } from "../intake/goal-context.ts";
import { ignored, type Outcome } from "../webhooks/outcome.ts";
import { readBodyEdit } from "./body-edit.ts";
import type { IssuesEvent } from "./issue-payloads.ts";
import { planBodyEdit, planOwnWrite } from "./plan-body-edit.ts";
import { subIssueRetitled } from "./sub-issue-events.ts";

/**
 * `issues.edited` on a goal issue: gathers what the planners decide on (whether the edit is
 * the app's own echo, what changed in and around the managed block, the sender's write
 * access) and hands the plan to the store. See planBodyEdit and planOwnWrite for the rules.
 */
export async function editGoalBody(
  deps: AppDeps,
  delivery: Delivery,
  e: IssuesEvent,
): Promise<Outcome> {
  if (e.issue.pull_request !== undefined) return ignored("a pull request is not a goal");
  const goal = await deps.store.findGoalByIssue(e.repository.id, e.issue.number);
  if (!goal) return subIssueRetitled(deps, delivery, e);
  const about = { installationId: e.installation.id, goal };
  const port = await deps.readsFor(e.installation.id);
  if (e.sender.login === (await port.botLogin())) {
    return commitPlan(deps, delivery, about, await ownWrite(deps, port, goal, delivery, e));
  }
  const from = e.changes?.body?.from;
  // Someone else wrote the body: LoopX's next write reads it first instead of trusting its own.
  if (from !== undefined) {
    await deps.store.setProjection(goal.goal.id, "body", { wroteIsCurrent: false });
  }
  const edit = from === undefined ? null : readBodyEdit(from ?? "", e.issue.body ?? "");
  const titleChanged = e.changes?.title !== undefined;
  const touched = edit !== null && (edit.blockChanged || edit.outsideChanged);
  // Write access is asked only when the edit is one LoopX reads.
  const trusted =
    touched || titleChanged
      ? (await actorFor(port, repoName(e.repository), e.sender)).trusted
      : false;
  const today = (await deps.store.databaseNow()).toISOString().slice(0, 10);
  const plan = planBodyEdit({
    issue: issueRef(e.repository, e.issue.number),
    repo: { id: e.repository.id, fullName: e.repository.full_name },
    goal,
    deliveryId: delivery.deliveryId,
    sender: e.sender,
    edit,
    titleChanged,
    trusted,
    today,
  });
  return commitPlan(deps, delivery, about, plan);
}

async function ownWrite(
  deps: AppDeps,
  port: GitHubReads,
  goal: GoalState,
  delivery: Delivery,
  e: IssuesEvent,
) {
  const issue = issueRef(e.repository, e.issue.number);
  const from = e.changes?.body?.from;
  const recorded = await deps.store.getProjection(goal.goal.id, "body");
  const wrote = e.issue.body ?? "";
  // The body is read again only when the echo says a person's edit may have been overwritten.
  const suspect =
    from != null &&
    recorded?.readBody != null &&
    recorded.wroteBody === wrote &&
    from !== recorded.readBody;
  const current = suspect ? (await port.getIssue(issue)).body : null;
  return planOwnWrite({
    issue,
    deliveryId: delivery.deliveryId,
    from,
    wrote,
    recorded: recorded ? { readBody: recorded.readBody, wroteBody: recorded.wroteBody } : null,
    current,
  });
}
