import { type GoalState, queueNote } from "@loopx/core";
import { type CommandParse, type GitHubPort, HELP_TEXT, parseCommand } from "@loopx/github";
import type { Applied, Delivery } from "@loopx/store";
import { actorFor, type HumanActor } from "../authority.ts";
import type { AppDeps } from "../deps.ts";
import { loadRepoConfig } from "../repo-config.ts";
import type { IssueCommentEvent } from "../webhooks/payloads.ts";
import { reactTo, replyTo, replyToOutsider } from "./comment-replies.ts";
import { issueRef, repoName, transitionContext } from "./goal-context.ts";
import { commentAlreadyApplied, tagWithComment } from "./goal-lookups.ts";
import { applied, ignored, type Outcome } from "./outcome.ts";
import { type CommandTransition, planCommand } from "./run-command.ts";

const isBot = (who: { login: string; type: string }) =>
  who.type === "Bot" || who.login.endsWith("[bot]");

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
    await deps.portFor(e.installation.id),
    repoName(e.repository),
  );
  const label = config.ok ? config.config.label : null;
  if (label !== null && labels.includes(label)) {
    throw new Error(
      `#${e.issue.number} carries the "${label}" label but has no goal yet: waiting for the labeled delivery`,
    );
  }
}

/**
 * `issue_comment.created` on a goal issue: a `/loopx` command on the first line is applied
 * once per comment id by someone with write access; any other comment is a note for the
 * next slice (a writer's as instruction, anyone else's as fenced data). Bots — the app
 * included — are observed (the delivery is recorded) but never obeyed. Edited comments are
 * not routed here at all: a command added by editing never acts.
 */
export async function onIssueComment(
  deps: AppDeps,
  delivery: Delivery,
  e: IssueCommentEvent,
): Promise<Outcome> {
  if (e.issue.pull_request !== undefined) return ignored("a comment on a pull request");
  const author = e.comment.user ?? e.sender;
  if (isBot(author)) return ignored(`comment by ${author.login}: bots carry no authority`);
  const goal = await deps.store.findGoalByIssue(e.repository.id, e.issue.number);
  if (!goal) {
    await waitForLabel(deps, delivery, e);
    return ignored("no goal on this issue");
  }
  const commentId = e.comment.id;
  if (await commentAlreadyApplied(deps.store, goal.goal.id, commentId)) {
    return ignored(`comment ${commentId} was already applied`);
  }
  const body = e.comment.body ?? "";
  const port = await deps.portFor(e.installation.id);
  const repo = repoName(e.repository);
  const config = await loadRepoConfig(port, repo);
  const actor = await actorFor(port, repo, author);
  const parsed = parseCommand(body);
  const turn: Turn = { deps, delivery, port, goal, actor, commentId, e };
  if (parsed === null) return queueCommentNote(turn, body);
  return runCommand(turn, parsed, config);
}

interface Turn {
  deps: AppDeps;
  delivery: Delivery;
  port: GitHubPort;
  goal: GoalState;
  actor: HumanActor;
  commentId: number;
  e: IssueCommentEvent;
}

/** Every comment is kept for the next slice; only a writer's becomes an instruction. */
async function queueCommentNote(t: Turn, body: string): Promise<Outcome> {
  const text = body.trim().slice(0, 4000);
  if (text === "") return ignored("an empty comment");
  const result = await applyFor(t, (s, ctx) => queueNote(s, { text }, ctx));
  return result.ok ? applied : ignored(`note refused: ${result.refusal.code}`);
}

async function runCommand(
  t: Turn,
  parsed: CommandParse,
  config: Awaited<ReturnType<typeof loadRepoConfig>>,
): Promise<Outcome> {
  const { deps, port, e, commentId } = t;
  const issue = issueRef(e.repository, e.issue.number);
  const typed = (e.comment.body ?? "").trim().split(/\r?\n/)[0] ?? "";
  if (!t.actor.trusted) return answerOutsider(t, parsed, typed);
  await reactTo(port, deps.log, issue, commentId, "eyes");
  if (parsed.kind === "error") {
    await replyTo(port, issue, commentId, typed, parsed.message, parsed.help);
    return ignored(`malformed command: ${parsed.code}`);
  }
  if (parsed.command.name === "help") {
    await replyTo(port, issue, commentId, typed, "Here is what LoopX understands.", HELP_TEXT);
    await reactTo(port, deps.log, issue, commentId, "+1");
    return ignored("help");
  }
  const repo = repoName(e.repository);
  const plan = await planCommand(
    {
      port,
      repo,
      goal: t.goal,
      config,
      login: t.actor.login,
      commentAt: e.comment.created_at ?? null,
    },
    parsed.command,
  );
  if (plan.kind === "help") return ignored("help");
  if (plan.kind === "refuse") {
    await replyTo(port, issue, commentId, typed, plan.message);
    return ignored("command refused before the kernel");
  }
  const result = await applyFor(t, plan.transition);
  if (!result.ok) {
    await replyTo(port, issue, commentId, typed, result.refusal.message);
    return ignored(`refused: ${result.refusal.code}`);
  }
  await reactTo(port, deps.log, issue, commentId, "+1");
  return applied;
}

/**
 * A command from someone without write access changes nothing; they are told why (or get
 * the help they asked for) from the outsiders' reply allowance, with no reaction besides.
 */
async function answerOutsider(t: Turn, parsed: CommandParse, typed: string): Promise<Outcome> {
  const { deps, e, commentId } = t;
  const [message, help] =
    parsed.kind === "error"
      ? [parsed.message, parsed.help]
      : parsed.command.name === "help"
        ? ["Here is what LoopX understands.", HELP_TEXT]
        : [
            `LoopX commands need write access to ${e.repository.full_name} (being listed in \`owners:\` is not enough); ${t.actor.login} does not have it, so nothing changed. Ask a maintainer to run it, or leave a plain comment: it reaches the next slice as a note.`,
            undefined,
          ];
  const to = { repoId: e.repository.id, login: t.actor.login };
  const issue = issueRef(e.repository, e.issue.number);
  const sent = await replyToOutsider(deps, e.installation.id, to, (port) =>
    replyTo(port, issue, commentId, typed, message, help),
  );
  const what = `command from ${t.actor.login}, who has no write access`;
  return ignored(sent ? what : `${what} (reply allowance spent: nothing sent)`);
}

/** Applies for this delivery; the comment id rides on every event, for the once-per-comment check. */
function applyFor(t: Turn, transition: CommandTransition): Promise<Applied> {
  const { deps } = t;
  return deps.store.apply(
    t.goal.goal.id,
    (s, now) => tagWithComment(transition(s, transitionContext(deps, t.actor, now)), t.commentId),
    { deliveryId: t.delivery.deliveryId },
  );
}
