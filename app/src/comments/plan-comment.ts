import { type GoalState, previewWords, queueNote, type TransitionResult } from "@loopx/core";
import { type CommandParse, HELP_TEXT, type IssueRef } from "@loopx/github";
import { isBot } from "../authority.ts";
import {
  type Addressee,
  type IntakePlan,
  ignore,
  type KernelStep,
  react,
  replyToComment,
} from "../intake/intake-plan.ts";
import { HELP_INTRO } from "./plan-goalless-command.ts";
import type { CommandPlan } from "./run-command.ts";

/** What the handler found out about a new issue comment before deciding. */
export interface CommentFacts {
  issue: IssueRef;
  repo: { id: number; fullName: string };
  commentId: number;
  body: string;
  author: { login: string; type: string };
  onPullRequest: boolean;
  goal: GoalState | null;
  /** This comment's id already rides on one of the goal's events. */
  alreadyApplied: boolean;
  /** Write access, read from GitHub at the time of the act (false for bots). */
  trusted: boolean;
  parsed: CommandParse | null;
  /** A writer's command, turned into what it means (null for anything else). */
  command: CommandPlan | null;
  /** For a dry run: the clock and ids the command's transition is tried with. */
  dryRun?: { now: Date; newId: () => string };
}

/**
 * The comments nobody is answered for, decided on the facts known before GitHub is asked
 * anything: on a pull request, by a bot (the app included), on an issue with no goal, or
 * already applied once.
 */
export function screenComment(
  f: Pick<CommentFacts, "onPullRequest" | "author" | "commentId"> & {
    goal?: GoalState | null | undefined;
    alreadyApplied?: boolean | undefined;
  },
): IntakePlan | null {
  if (f.onPullRequest) return ignore("a comment on a pull request");
  if (isBot(f.author)) return ignore(`comment by ${f.author.login}: bots carry no authority`);
  if (f.goal === null) return ignore("no goal on this issue");
  if (f.alreadyApplied === true) return ignore(`comment ${f.commentId} was already applied`);
  return null;
}

/**
 * `issue_comment.created`: a `/loopx` command on the first line is applied once per comment
 * id by someone with write access (seen: eyes; applied: +1; refused: a reply saying why);
 * an outsider's command changes nothing and is answered from the outsiders' allowance, with
 * no reaction; any other comment is a note. Bots are observed, never obeyed nor answered.
 */
export function planComment(f: CommentFacts): IntakePlan {
  const screened = screenComment(f);
  if (screened !== null) return screened;
  const actor = { kind: "human" as const, login: f.author.login, trusted: f.trusted };
  const tagged =
    (step: KernelStep): KernelStep =>
    (s, ctx) =>
      tagWithComment(step(s, ctx), f.commentId);
  if (f.parsed === null) {
    const text = f.body.trim().slice(0, 4000);
    if (text === "") return ignore("an empty comment");
    // Every comment is kept for the next slice; only a writer's becomes an instruction.
    return {
      kind: "apply",
      actor,
      transition: tagged((s, ctx) => queueNote(s, { text }, ctx)),
      effects: [],
    };
  }
  const typed = f.body.trim().split(/\r?\n/)[0] ?? "";
  const to: Addressee = {
    repoId: f.repo.id,
    login: f.author.login,
    lane: f.trusted ? "loopx" : "outsider",
  };
  const answer = (message: string, help?: string) =>
    replyToComment(f.issue, f.commentId, typed, to, message, help);
  const parsed = f.parsed;
  if (!f.trusted) {
    const [message, help] =
      parsed.kind === "error"
        ? [parsed.message, parsed.help]
        : parsed.command.name === "help"
          ? [HELP_INTRO, HELP_TEXT]
          : [
              `LoopX commands need write access to ${f.repo.fullName} (being listed in \`owners:\` is not enough); ${f.author.login} does not have it, so nothing changed. Ask a maintainer to run it, or leave a plain comment: it reaches the next slice as a note.`,
              undefined,
            ];
    return ignore(`command from ${f.author.login}, who has no write access`, [
      answer(message, help),
    ]);
  }
  const seen = react(f.issue, f.commentId, "eyes");
  const done = react(f.issue, f.commentId, "+1");
  if (parsed.kind === "error") {
    return ignore(`malformed command: ${parsed.code}`, [seen, answer(parsed.message, parsed.help)]);
  }
  if (parsed.command.name === "help") {
    return ignore("help", [seen, answer(HELP_INTRO, HELP_TEXT), done]);
  }
  const command = f.command;
  if (command === null || command.kind === "help") return ignore("help", [seen]);
  if (command.kind === "refuse") {
    return ignore("command refused before the kernel", [seen, answer(command.message)]);
  }
  if (parsed.dryRun === true) {
    // A dry run never applies: the transition runs on the goal as loaded and its result is
    // only described, so nothing changes and nothing is written but the answer.
    if (f.goal === null || f.dryRun === undefined) return ignore("a dry run, not tried", [seen]);
    const tried = command.transition(f.goal, { actor, ...f.dryRun });
    return ignore("a dry run", [seen, answer(previewWords(tried))]);
  }
  return {
    kind: "apply",
    actor,
    transition: tagged(command.transition),
    effects: [seen],
    applied: [done],
    refused: (refusal) => [answer(refusal.message)],
  };
}

/** Stamps every event of a transition with the comment that caused it (the audit trail). */
export function tagWithComment(result: TransitionResult, commentId: number): TransitionResult {
  if (!result.ok) return result;
  return {
    ...result,
    events: result.events.map((e) => ({ ...e, data: { ...e.data, commentId: String(commentId) } })),
  };
}
