import { pauseGoal, stopGoal } from "@loopx/core";
import type { Delivery } from "@loopx/store";
import { actorFor } from "../authority.ts";
import type { AppDeps } from "../deps.ts";
import { commitPlan } from "../intake/commit-plan.ts";
import { planReopened } from "../intake/plan-issue-state.ts";
import { loadRepoConfig } from "../repo-config.ts";
import type { IssuesEvent } from "../webhooks/payloads.ts";
import { applyForDelivery, issueRef, outcomeOf, repoName } from "./goal-context.ts";
import { ignored, type Outcome } from "./outcome.ts";
import { subIssueClosed } from "./sub-issue-events.ts";

const DEFAULT_LABEL = "loopx";

/**
 * `issues.closed`: a person closing the goal issue stops the goal (only LoopX closes a
 * finished goal's issue, and its own close is ignored here). Not a goal: maybe a sub-issue.
 */
export async function issueClosed(
  deps: AppDeps,
  delivery: Delivery,
  e: IssuesEvent,
): Promise<Outcome> {
  if (e.issue.pull_request !== undefined) return ignored("a pull request is not a goal");
  const goal = await deps.store.findGoalByIssue(e.repository.id, e.issue.number);
  if (!goal) return subIssueClosed(deps, delivery, e);
  const port = await deps.readsFor(e.installation.id);
  if (e.sender.login === (await port.botLogin())) return ignored("closed by LoopX itself");
  if (goal.goal.status !== "active" && goal.goal.status !== "paused") {
    return ignored(`goal already ${goal.goal.status}`);
  }
  // Closing is a fact GitHub reports, whoever may close (the author, triage): stopping is
  // the safe reading of it. Resuming takes a writer's `/loopx resume`.
  const reason = `issue closed by @${e.sender.login}`;
  const r = await applyForDelivery(
    deps,
    goal,
    delivery.deliveryId,
    { kind: "system", reason },
    (s, ctx) =>
      stopGoal(
        s,
        { reason: `${reason}; reopen it and comment \`/loopx resume\` to continue` },
        ctx,
      ),
  );
  return outcomeOf(r);
}

/** `issues.reopened`: see planReopened. */
export async function issueReopened(
  deps: AppDeps,
  delivery: Delivery,
  e: IssuesEvent,
): Promise<Outcome> {
  const goal = await deps.store.findGoalByIssue(e.repository.id, e.issue.number);
  const plan = planReopened({
    issue: issueRef(e.repository, e.issue.number),
    repoId: e.repository.id,
    sender: e.sender.login,
    goal,
  });
  return commitPlan(deps, delivery, { installationId: e.installation.id, goal }, plan);
}

/** `issues.unlabeled` (the goal label): a writer pauses the goal; anyone else, nothing. */
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
  if (e.label?.name !== label) return ignored(`label ${e.label?.name ?? "(none)"} is not ${label}`);
  if (goal.goal.status !== "active") return ignored(`goal ${goal.goal.status}`);
  const actor = await actorFor(port, repo, e.sender);
  if (!actor.trusted) return ignored(`label removed by ${e.sender.login}, who has no write access`);
  const r = await applyForDelivery(deps, goal, delivery.deliveryId, actor, (s, ctx) =>
    pauseGoal(
      s,
      {
        reason: `the \`${label}\` label was removed by @${e.sender.login}; add it again to resume`,
      },
      ctx,
    ),
  );
  return outcomeOf(r);
}
