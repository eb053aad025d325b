import { actLinkOf } from "@loopx/core";
import { type Command, type CommandParse, parseCommand } from "@loopx/github";
import type { Delivery } from "@loopx/store";
import { actorFor, isBot } from "../authority.ts";
import type { AppDeps } from "../deps.ts";
import { commitPlan } from "../intake/commit-plan.ts";
import { issueRef, repoName } from "../intake/goal-context.ts";
import { loadRepoConfig } from "../repo-config.ts";
import type { Outcome } from "../webhooks/outcome.ts";
import type { IssueCommentEvent } from "./comment-payload.ts";
import { goallessCommand } from "./goalless-command.ts";
import { planComment, screenComment } from "./plan-comment.ts";
import { type CommandPlan, planCommand } from "./run-command.ts";

/** Tries (with the inbox's backoff: 1, 2, 4 minutes) to wait for a goal's `labeled` delivery. */
export const WAIT_FOR_LABEL_ATTEMPTS = 3;

/**
 * A comment on an issue that already carried the goal label when it was written, while the
 * store has no goal yet: the `labeled` delivery is late (GitHub does not keep delivery
 * order, and a failed one comes back only through the reconciler). Throwing leaves the
 * comment in the inbox for a retry instead of dropping a command made in order. Bounded: a
 * label that never becomes a goal (refused) stops the waiting.
 */
async function waitForLabel(
  deps: AppDeps,
  delivery: Delivery,
  e: IssueCommentEvent,
): Promise<void> {
  const labels = (e.issue.labels ?? []).map((l) => l.name);
  if (labels.length === 0 || delivery.attempts >= WAIT_FOR_LABEL_ATTEMPTS) return;
  const config = await loadRepoConfig(
    await deps.readsFor(e.installation.id),
    repoName(e.repository),
  );
  const label = config.ok ? config.config.label : null;
  if (label !== null && labels.includes(label)) {
    throw new Error(
      `#${e.issue.number} carries the "${label}" label but has no goal yet: waiting for the labeled delivery`,
    );
  }
}

/** The commands answered where there is no goal (any issue, any pull request). */
function goallessOf(
  parsed: CommandParse | null,
): Extract<Command, { name: "help" | "start" }> | null {
  if (parsed?.kind !== "command") return null;
  const c = parsed.command;
  return c.name === "help" || c.name === "start" ? c : null;
}

/**
 * `issue_comment.created` on a goal issue (`help` and `start` anywhere: goallessCommand): gathers what planComment decides on (the goal,
 * whether this comment was applied, the author's write access, what a writer's command
 * means) and hands its plan to the store. Edited comments are not routed here at all: a
 * command added by editing never acts.
 */
export async function onIssueComment(
  deps: AppDeps,
  delivery: Delivery,
  e: IssueCommentEvent,
): Promise<Outcome> {
  const author = e.comment.user ?? e.sender;
  const about = { installationId: e.installation.id };
  const base = {
    issue: issueRef(e.repository, e.issue.number),
    repo: { id: e.repository.id, fullName: e.repository.full_name },
    commentId: e.comment.id,
    body: e.comment.body ?? "",
    author,
    onPullRequest: e.issue.pull_request !== undefined,
  };
  const parsed = parseCommand(base.body);
  const anywhere = goallessOf(parsed);
  const dry = parsed?.kind === "command" && parsed.dryRun === true;
  if (anywhere !== null && base.onPullRequest && !isBot(author)) {
    return goallessCommand(deps, delivery, e, anywhere, dry);
  }
  const first = screenComment(base);
  if (first !== null) return commitPlan(deps, delivery, { ...about, goal: null }, first);
  const found = await deps.store.findCommentedGoal(e.repository.id, e.issue.number, base.commentId);
  const goal = found?.goal ?? null;
  if (!goal) await waitForLabel(deps, delivery, e);
  if (!goal && anywhere !== null) return goallessCommand(deps, delivery, e, anywhere, dry);
  const alreadyApplied = found?.applied ?? false;
  const screened = screenComment({ ...base, goal, alreadyApplied });
  if (screened !== null) return commitPlan(deps, delivery, { ...about, goal }, screened);
  if (goal === null) throw new Error("screenComment lets no comment without a goal through");
  const port = await deps.readsFor(e.installation.id);
  const repo = repoName(e.repository);
  const config = await loadRepoConfig(port, repo);
  const actor = await actorFor(port, repo, author);
  let command: CommandPlan | null = null;
  if (actor.trusted && parsed?.kind === "command" && parsed.command.name !== "help") {
    command = await planCommand(
      {
        port,
        repo,
        goal,
        config,
        login: actor.login,
        commentAt: e.comment.created_at ?? null,
        act: actLinkOf(e.comment.html_url),
      },
      parsed.command,
    );
  }
  const dryRun = dry ? { now: await deps.store.databaseNow(), newId: deps.newId } : undefined;
  const facts = {
    ...base,
    goal,
    alreadyApplied,
    trusted: actor.trusted,
    parsed,
    command,
    ...(dryRun ? { dryRun } : {}),
  };
  return commitPlan(deps, delivery, { ...about, goal }, planComment(facts));
}
