import type { Delivery } from "@loopx/store";
import { actorFor } from "../authority.ts";
import type { AppDeps } from "../deps.ts";
import { commitPlan } from "../intake/commit-plan.ts";
import { issueRef, repoName } from "../intake/goal-context.ts";
import { loadRepoConfig } from "../repo-config.ts";
import { ignored, type Outcome } from "../webhooks/outcome.ts";
import type { IssuesEvent } from "./issue-payloads.ts";
import { planClosed, planReopened, planUnlabeled } from "./plan-issue-state.ts";
import { subIssueClosed, subIssueReopened } from "./sub-issue-events.ts";

const DEFAULT_LABEL = "loopx";

/** `issues.closed`: see planClosed. Not a goal issue: maybe a todo's sub-issue. */
export async function issueClosed(
  deps: AppDeps,
  delivery: Delivery,
  e: IssuesEvent,
): Promise<Outcome> {
  if (e.issue.pull_request !== undefined) return ignored("a pull request is not a goal");
  const goal = await deps.store.findGoalByIssue(e.repository.id, e.issue.number);
  if (!goal) return subIssueClosed(deps, delivery, e);
  const port = await deps.readsFor(e.installation.id);
  const byLoopx = e.sender.login === (await port.botLogin());
  const plan = planClosed({ goal, sender: e.sender.login, byLoopx });
  return commitPlan(deps, delivery, { installationId: e.installation.id, goal }, plan);
}

/** `issues.reopened`: see planReopened. */
export async function issueReopened(
  deps: AppDeps,
  delivery: Delivery,
  e: IssuesEvent,
): Promise<Outcome> {
  if (e.issue.pull_request !== undefined) return ignored("a pull request is not a goal");
  const goal = await deps.store.findGoalByIssue(e.repository.id, e.issue.number);
  if (!goal) return subIssueReopened(deps, delivery, e);
  const plan = planReopened({
    issue: issueRef(e.repository, e.issue.number),
    repoId: e.repository.id,
    sender: e.sender.login,
    goal,
  });
  return commitPlan(deps, delivery, { installationId: e.installation.id, goal }, plan);
}

/** `issues.unlabeled`: see planUnlabeled. */
export async function issueUnlabeled(
  deps: AppDeps,
  delivery: Delivery,
  e: IssuesEvent,
): Promise<Outcome> {
  const goal = await deps.store.findGoalByIssue(e.repository.id, e.issue.number);
  if (!goal) return ignored("not a goal issue");
  const port = await deps.readsFor(e.installation.id);
  const repo = repoName(e.repository);
  const config = await loadRepoConfig(port, repo);
  const label = config.ok ? config.config.label : DEFAULT_LABEL;
  const removed = e.label?.name ?? null;
  // Write access is asked only when it would decide.
  const decides = removed === label && goal.goal.status === "active";
  const trusted = decides && (await actorFor(port, repo, e.sender)).trusted;
  const plan = planUnlabeled({ goal, removed, goalLabel: label, sender: e.sender.login, trusted });
  return commitPlan(deps, delivery, { installationId: e.installation.id, goal }, plan);
}
