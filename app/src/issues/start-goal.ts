import { createGoal } from "@loopx/core";
import { parseTaskList } from "@loopx/github";
import type { Delivery } from "@loopx/store";
import { actorFor } from "../authority.ts";
import type { AppDeps } from "../deps.ts";
import { commitPlan } from "../intake/commit-plan.ts";
import { issueRef, repoName, transitionContext } from "../intake/goal-context.ts";
import { describeConfigErrors, loadRepoConfig } from "../repo-config.ts";
import { applied, ignored, type Outcome } from "../webhooks/outcome.ts";
import type { IssuesEvent } from "./issue-payloads.ts";
import { planStart } from "./plan-start.ts";

const DEFAULT_LABEL = "loopx";

/**
 * `issues.labeled`: gathers what planStart decides on (the label the config names, the
 * sender's write access, the goal already there, the task list) and hands its plan to the
 * store; a new goal is built here, with the config and the database's clock.
 */
export async function startGoal(
  deps: AppDeps,
  delivery: Delivery,
  e: IssuesEvent,
): Promise<Outcome> {
  const onPullRequest = e.issue.pull_request !== undefined;
  const port = await deps.readsFor(e.installation.id);
  const repo = repoName(e.repository);
  const config = onPullRequest ? null : await loadRepoConfig(port, repo);
  const label = config?.ok ? config.config.label : DEFAULT_LABEL;
  const relevant = !onPullRequest && e.label?.name === label;
  const actor = relevant ? await actorFor(port, repo, e.sender) : null;
  const existing =
    actor?.trusted === true
      ? await deps.store.findGoalByIssue(e.repository.id, e.issue.number)
      : null;
  const author = e.issue.user?.login ?? "ghost";
  // Whether the body may instruct the agent: only if its author could have labelled it too.
  const authorTrusted =
    actor?.trusted === true &&
    existing === null &&
    (author === e.sender.login ||
      (await actorFor(port, repo, { login: author, type: e.issue.user?.type ?? "User" })).trusted);
  const body = e.issue.body ?? "";
  // A writer's own task list is the plan, already made; an outsider's is data inside the
  // objective, and the agent plans. Ticked items are done, not work to do.
  const todos = authorTrusted
    ? parseTaskList(body)
        .filter((item) => !item.checked)
        .map((item) => ({ title: item.title }))
    : [];
  const plan = planStart({
    issue: issueRef(e.repository, e.issue.number),
    repo: { id: e.repository.id, fullName: e.repository.full_name },
    onPullRequest,
    added: e.label?.name ?? null,
    goalLabel: label,
    sender: e.sender.login,
    trusted: actor?.trusted === true,
    existing,
    openTodos: todos.length,
  });
  const about = { installationId: e.installation.id, goal: existing };
  if (plan.kind !== "create") return commitPlan(deps, delivery, about, plan);
  if (actor === null || config === null) throw new Error("only a writer's label creates a goal");
  const owners = config.ok ? config.config.owners : [];
  const cfg = config.ok ? config.config : null;
  const created = await deps.store.createGoal(
    (now) =>
      createGoal(
        {
          id: deps.newId(),
          installationId: e.installation.id,
          repo: {
            id: e.repository.id,
            ownerId: e.repository.owner.id,
            owner: e.repository.owner.login,
            name: e.repository.name,
          },
          issue: { id: e.issue.id, number: e.issue.number },
          // The objective is the issue as it is now: later edits count only from writers.
          objective: {
            title: e.issue.title,
            body,
            author,
            authorTrusted,
            snapshotAt: now,
          },
          owners: [...new Set([e.sender.login, ...owners])],
          harness: cfg?.harness.default ?? "claude-code",
          validationCommand: cfg?.validationCommand ?? null,
          // Unset, an outsider's objective has its plan approved by a writer before it runs.
          plan: cfg?.plan ?? (authorTrusted ? "auto" : "approve"),
          todos,
          ...(cfg
            ? {
                budget: cfg.budgets.goal,
                tickCap: cfg.budgets.tick,
                quota: cfg.quota,
              }
            : {}),
          ...(config.ok
            ? {}
            : {
                pausedBecause:
                  `\`.github/loopx.yml\` is invalid; fix it, then comment \`/loopx resume\`:\n${describeConfigErrors(config.errors)}`.slice(
                    0,
                    2000,
                  ),
              }),
        },
        transitionContext(deps, actor, now),
      ),
    { deliveryId: delivery.deliveryId },
  );
  return created.ok ? applied : ignored(`refused: ${created.refusal.code}`);
}
