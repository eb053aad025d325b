import { createGoal, type TransitionResult } from "@loopx/core";
import { type GitHubReads, parseTaskList, type RepoName } from "@loopx/github";
import type { Delivery } from "@loopx/store";
import { actorFor, type HumanActor } from "../authority.ts";
import type { AppDeps } from "../deps.ts";
import { commitPlan } from "../intake/commit-plan.ts";
import { issueRef, repoName, transitionContext } from "../intake/goal-context.ts";
import { describeConfigErrors, loadRepoConfig, type RepoConfig } from "../repo-config.ts";
import type { Issue, Repository } from "../webhooks/envelope.ts";
import { applied, ignored, type Outcome } from "../webhooks/outcome.ts";
import type { IssuesEvent } from "./issue-payloads.ts";
import { planStart } from "./plan-start.ts";

const DEFAULT_LABEL = "loopx";

/** What a goal starts from: the issue as it is now, and whether its words may instruct. */
export interface IssueObjective {
  title: string;
  body: string;
  author: string;
  authorTrusted: boolean;
  /** A writer's own task list is the plan, already made; anyone else's, the agent plans. */
  todos: { title: string; paths?: string[] }[];
  /** Why an open item's `paths:` clause is refused: the goal starts only once it is fixed. */
  pathsProblem?: string | null;
}

/**
 * The issue as an objective: its body instructs only if its author could have started the
 * goal too (the starter, or another writer). Ticked task-list items are done, not work.
 */
export async function issueObjective(
  port: GitHubReads,
  repo: RepoName,
  issue: Issue,
  starter: string,
): Promise<IssueObjective> {
  const author = issue.user?.login ?? "ghost";
  const authorTrusted =
    author === starter ||
    (await actorFor(port, repo, { login: author, type: issue.user?.type ?? "User" })).trusted;
  const body = issue.body ?? "";
  const open = authorTrusted ? parseTaskList(body).filter((item) => !item.checked) : [];
  const todos = open.map((item) =>
    item.paths ? { title: item.title, paths: item.paths } : { title: item.title },
  );
  const problem = open.find((item) => item.pathsProblem !== undefined);
  const pathsProblem = problem ? `"${problem.title}": ${problem.pathsProblem}` : null;
  return { title: issue.title, body, author, authorTrusted, todos, pathsProblem };
}

/** Everything a new goal is built from, whichever act started it (the label, `/loopx start`). */
export interface NewGoalFacts {
  installationId: number;
  repository: Repository;
  issue: Issue;
  starter: HumanActor;
  config: RepoConfig;
  objective: IssueObjective;
  /** Extra effects committed with the goal, and how its events are tagged (a command's). */
  decorate?: (r: Extract<TransitionResult, { ok: true }>) => TransitionResult;
}

/** Creates the goal with the config and the database's clock, marking the delivery with it. */
export async function createGoalForIssue(
  deps: AppDeps,
  delivery: Delivery,
  f: NewGoalFacts,
): Promise<Outcome> {
  const { config, objective } = f;
  const cfg = config.ok ? config.config : null;
  const created = await deps.store.createGoal(
    (now) => {
      const r = createGoal(
        {
          id: deps.newId(),
          installationId: f.installationId,
          repo: {
            id: f.repository.id,
            ownerId: f.repository.owner.id,
            owner: f.repository.owner.login,
            name: f.repository.name,
          },
          issue: { id: f.issue.id, number: f.issue.number },
          // The objective is the issue as it is now: later edits count only from writers.
          objective: {
            title: objective.title,
            body: objective.body,
            author: objective.author,
            authorTrusted: objective.authorTrusted,
            snapshotAt: now,
          },
          owners: [...new Set([f.starter.login, ...(cfg?.owners ?? [])])],
          harness: cfg?.harness.default ?? "claude-code",
          validationCommand: cfg?.validationCommand ?? null,
          // Unset, an outsider's objective has its plan approved by a writer before it runs.
          plan: cfg?.plan ?? (objective.authorTrusted ? "auto" : "approve"),
          parallel: cfg?.parallel ?? 1,
          todos: objective.todos,
          ...(cfg ? { budget: cfg.budgets.goal, tickCap: cfg.budgets.tick, quota: cfg.quota } : {}),
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
        transitionContext(deps, f.starter, now),
      );
      return r.ok && f.decorate ? f.decorate(r) : r;
    },
    { deliveryId: delivery.deliveryId },
  );
  return created.ok ? applied : ignored(`refused: ${created.refusal.code}`);
}

/**
 * `issues.labeled`: gathers what planStart decides on (the label the config names, the
 * sender's write access, the goal already there, the task list) and hands its plan to the
 * store; a new goal is built by createGoalForIssue.
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
  const objective =
    actor?.trusted === true && existing === null
      ? await issueObjective(port, repo, e.issue, e.sender.login)
      : null;
  const plan = planStart({
    issue: issueRef(e.repository, e.issue.number),
    repo: { id: e.repository.id, fullName: e.repository.full_name },
    onPullRequest,
    added: e.label?.name ?? null,
    goalLabel: label,
    sender: e.sender.login,
    trusted: actor?.trusted === true,
    existing,
    openTodos: objective?.todos.length ?? 0,
    pathsProblem: objective?.pathsProblem ?? null,
  });
  const about = { installationId: e.installation.id, goal: existing };
  if (plan.kind !== "create") return commitPlan(deps, delivery, about, plan);
  if (actor === null || config === null || objective === null) {
    throw new Error("only a writer's label creates a goal");
  }
  return createGoalForIssue(deps, delivery, {
    installationId: e.installation.id,
    repository: e.repository,
    issue: e.issue,
    starter: actor,
    config,
    objective,
  });
}
