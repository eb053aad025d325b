import { dryRunWords } from "@loopx/core";
import type { Command } from "@loopx/github";
import type { Delivery } from "@loopx/store";
import { actorFor } from "../authority.ts";
import type { AppDeps } from "../deps.ts";
import { commitPlan } from "../intake/commit-plan.ts";
import { issueRef, repoName } from "../intake/goal-context.ts";
import { ignore, react, replyToComment } from "../intake/intake-plan.ts";
import { createGoalForIssue, type IssueObjective, issueObjective } from "../issues/start-goal.ts";
import { loadRepoConfig } from "../repo-config.ts";
import type { Outcome } from "../webhooks/outcome.ts";
import type { IssueCommentEvent } from "./comment-payload.ts";
import { tagWithComment } from "./plan-comment.ts";
import { planGoallessCommand } from "./plan-goalless-command.ts";

/**
 * With an objective typed, the goal's objective is the writer's words; the issue's body and
 * task list still come with it when their author has write access, and stay out otherwise
 * (the writer said what the goal is).
 */
function withTypedObjective(
  issue: IssueObjective,
  typed: string | null,
  starter: string,
): IssueObjective {
  if (typed === null) return issue;
  return {
    title: typed,
    body: issue.authorTrusted ? issue.body : "",
    author: starter,
    authorTrusted: true,
    todos: issue.todos,
    pathsProblem: issue.pathsProblem ?? null,
  };
}

/**
 * `/loopx help` or `/loopx start` on an issue or pull request that has no goal: gathers the
 * author's write access and, for a writer's start, the issue as an objective, then commits
 * what planGoallessCommand decides — a reply, or a new goal built as the label builds it. A
 * dry run of a start that would create one says so and creates nothing.
 */
export async function goallessCommand(
  deps: AppDeps,
  delivery: Delivery,
  e: IssueCommentEvent,
  command: Extract<Command, { name: "help" | "start" }>,
  dryRun = false,
): Promise<Outcome> {
  const port = await deps.readsFor(e.installation.id);
  const repo = repoName(e.repository);
  const author = e.comment.user ?? e.sender;
  const actor = await actorFor(port, repo, author);
  const onPullRequest = e.issue.pull_request !== undefined;
  const starts = command.name === "start" && actor.trusted && !onPullRequest;
  const objective = starts
    ? withTypedObjective(
        await issueObjective(port, repo, e.issue, actor.login),
        command.objective,
        actor.login,
      )
    : null;
  const issue = issueRef(e.repository, e.issue.number);
  const typed = (e.comment.body ?? "").trim().split(/\r?\n/)[0] ?? "";
  const plan = planGoallessCommand({
    issue,
    repo: { id: e.repository.id, fullName: e.repository.full_name },
    commentId: e.comment.id,
    typed,
    author: actor.login,
    onPullRequest,
    trusted: actor.trusted,
    command,
    openTodos: objective?.todos.length ?? 0,
    pathsProblem: objective?.pathsProblem ?? null,
  });
  if (plan.kind !== "create") {
    return commitPlan(deps, delivery, { installationId: e.installation.id, goal: null }, plan);
  }
  if (objective === null) throw new Error("only a writer's start on an issue creates a goal");
  const seen = react(issue, e.comment.id, "eyes");
  if (dryRun) {
    const to = { repoId: e.repository.id, login: actor.login, lane: "loopx" as const };
    const todos = objective.todos.length;
    const how =
      todos > 0
        ? ` with ${todos} todo${todos === 1 ? "" : "s"} from its task list`
        : ", planned by its first slice";
    const preview = dryRunWords([`start a goal on this issue: “${objective.title}”${how}`]);
    const about = { installationId: e.installation.id, goal: null };
    const answer = replyToComment(issue, e.comment.id, typed, to, preview);
    return commitPlan(deps, delivery, about, ignore("a dry run of start", [seen, answer]));
  }
  const done = react(issue, e.comment.id, "+1");
  return createGoalForIssue(deps, delivery, {
    installationId: e.installation.id,
    repository: e.repository,
    issue: e.issue,
    starter: actor,
    config: await loadRepoConfig(port, repo),
    objective,
    // Tagged with the comment, so a redelivery finds the goal it started already applied.
    decorate: (r) => {
      const tagged = tagWithComment(r, e.comment.id);
      return tagged.ok ? { ...tagged, effects: [seen, ...tagged.effects, done] } : tagged;
    },
  });
}
