import { createGoal, MAX_INITIAL_TODOS, resumeGoal } from "@loopx/core";
import { neutralizeInline, parseTaskList } from "@loopx/github";
import type { Delivery } from "@loopx/store";
import { actorFor } from "../authority.ts";
import type { AppDeps } from "../deps.ts";
import { describeConfigErrors, loadRepoConfig } from "../repo-config.ts";
import type { IssuesEvent } from "../webhooks/payloads.ts";
import {
  applyForDelivery,
  issueRef,
  outcomeOf,
  repoName,
  transitionContext,
} from "./goal-context.ts";
import { applied, ignored, type Outcome } from "./outcome.ts";

const DEFAULT_LABEL = "loopx";

/**
 * `issues.labeled` with the goal label: a writer starts a goal (or resumes the paused one —
 * never a second goal for one issue); anyone else gets one reply saying who can.
 */
export async function startGoal(
  deps: AppDeps,
  delivery: Delivery,
  e: IssuesEvent,
): Promise<Outcome> {
  if (e.issue.pull_request !== undefined) return ignored("a pull request is not a goal");
  const port = await deps.portFor(e.installation.id);
  const repo = repoName(e.repository);
  const config = await loadRepoConfig(port, repo);
  const label = config.ok ? config.config.label : DEFAULT_LABEL;
  if (e.label?.name !== label) return ignored(`label ${e.label?.name ?? "(none)"} is not ${label}`);

  const owners = config.ok ? config.config.owners : [];
  const actor = await actorFor(port, repo, e.sender);
  const issue = issueRef(e.repository, e.issue.number);
  if (!actor.trusted) {
    await port.ensureComment(
      issue,
      `label-refused:${e.sender.login}`,
      `The \`${label}\` label starts a LoopX goal only when someone with write access to ` +
        `${neutralizeInline(e.repository.full_name)} adds it. Nothing was started; ask a ` +
        "maintainer to add the label.",
    );
    return ignored(`label from ${e.sender.login}, who cannot start a goal`);
  }

  const existing = await deps.store.findGoalByIssue(e.repository.id, e.issue.number);
  if (existing) {
    if (existing.goal.status !== "paused" && existing.goal.status !== "stopped") {
      return ignored(`goal already ${existing.goal.status}`);
    }
    const r = await applyForDelivery(deps, existing, delivery.deliveryId, actor, (s, ctx) =>
      resumeGoal(s, { reason: `relabelled by ${e.sender.login}` }, ctx),
    );
    return outcomeOf(r);
  }

  const author = e.issue.user?.login ?? "ghost";
  // Whether the body may instruct the agent: only if its author could have labelled it too.
  const authorTrusted =
    author === e.sender.login ||
    (await actorFor(port, repo, { login: author, type: e.issue.user?.type ?? "User" })).trusted;
  const cfg = config.ok ? config.config : null;
  const body = e.issue.body ?? "";
  // A writer's own task list is the plan, already made; an outsider's is data inside the
  // objective, and the agent plans. Ticked items are done, not work to do.
  const todos = authorTrusted
    ? parseTaskList(body)
        .filter((item) => !item.checked)
        .map((item) => ({ title: item.title }))
    : [];
  if (todos.length > MAX_INITIAL_TODOS) {
    await port.ensureComment(
      issue,
      `task-list-too-long:${e.issue.number}`,
      `The task list in this issue has ${todos.length} open items; a goal starts with at most ` +
        `${MAX_INITIAL_TODOS} todos. Nothing was started: split the work into several issues, ` +
        "or shorten the list, then add the label again.",
    );
    return ignored(`a task list of ${todos.length} open items`);
  }
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
