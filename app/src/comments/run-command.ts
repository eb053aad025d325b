import {
  acceptTodo,
  addTodo,
  approveGate,
  dropTodo,
  type GoalState,
  linkPullRequest,
  pauseGoal,
  rejectGate,
  releaseClaim,
  requestReplan,
  requestStatus,
  resumeGoal,
  setBudget,
  setHarness,
  stopGoal,
  type TransitionContext,
  type TransitionResult,
  takeClaim,
  wakeGoal,
} from "@loopx/core";
import { type Command, GitHubError, type GitHubReads, type RepoName } from "@loopx/github";
import { describeConfigErrors, type RepoConfig } from "../repo-config.ts";

export type CommandTransition = (s: GoalState, ctx: TransitionContext) => TransitionResult;

/** What a command comes to: a transition to apply, or a refusal the person is told. */
export type CommandPlan =
  | { kind: "apply"; transition: CommandTransition }
  | { kind: "refuse"; message: string }
  /** Nothing to change: the person gets the command list. */
  | { kind: "help" };

export interface CommandContext {
  port: GitHubReads;
  repo: RepoName;
  goal: GoalState;
  config: RepoConfig;
  login: string;
  /** When GitHub says the command's comment was written (null: it did not say). */
  commentAt: Date | null;
  /** The comment's link on GitHub, for the receipt (null: none given, or not a web link). */
  act: string | null;
}

const apply = (transition: CommandTransition): CommandPlan => ({ kind: "apply", transition });
const refuse = (message: string): CommandPlan => ({ kind: "refuse", message });

/**
 * Turns a parsed command into the kernel transition it means, reading what it needs from
 * GitHub first (the config for resume and budgets, a PR's current head). Authority was
 * checked by the caller and is checked again by the kernel.
 */
export async function planCommand(cx: CommandContext, command: Command): Promise<CommandPlan> {
  const by = `by ${cx.login}`;
  switch (command.name) {
    case "help":
      return { kind: "help" };
    case "start":
      return refuse(
        `This issue already is a LoopX goal (${cx.goal.goal.status}); nothing was started. ` +
          "Comment `/loopx status` to see it, or `/loopx resume` to continue a paused or stopped one.",
      );
    case "status":
      return apply((s, ctx) => requestStatus(s, ctx));
    case "approve":
      return planApprove(cx, command.gate, command.note);
    case "reject":
      return apply((s, ctx) =>
        rejectGate(s, { gate: command.gate, reason: command.reason, act: cx.act }, ctx),
      );
    case "pause":
      return apply((s, ctx) => pauseGoal(s, { reason: `paused ${by}` }, ctx));
    case "resume":
      // Resuming re-reads the config: a goal paused for an invalid file stays paused until it is fixed.
      if (!cx.config.ok) {
        return refuse(
          `\`.github/loopx.yml\` is still invalid, so the goal stays paused. Fix these, then comment \`/loopx resume\` again:\n${describeConfigErrors(cx.config.errors)}`,
        );
      }
      return apply((s, ctx) => resumeGoal(s, { reason: `resumed ${by}` }, ctx));
    case "stop":
      return apply((s, ctx) => stopGoal(s, { reason: `stopped ${by}` }, ctx));
    case "run":
      return apply((s, ctx) => wakeGoal(s, ctx));
    case "todo_add":
      return apply((s, ctx) =>
        addTodo(
          s,
          {
            title: command.title,
            asSubIssue: command.asIssue,
            requiredScopes: command.needs,
            paths: command.paths ?? [],
            origin: "human",
          },
          ctx,
        ),
      );
    case "todo_drop":
      return apply((s, ctx) => dropTodo(s, { todo: command.todo, reason: `dropped ${by}` }, ctx));
    case "todo_accept":
      return apply((s, ctx) => acceptTodo(s, { todo: command.todo }, ctx));
    case "claim":
      return apply((s, ctx) => takeClaim(s, { todo: command.todo }, ctx));
    case "release":
      return apply((s, ctx) => releaseClaim(s, { todo: command.todo }, ctx));
    case "replan":
      return apply((s, ctx) => requestReplan(s, { reason: `asked ${by}` }, ctx));
    case "budget": {
      // Without a valid config there is no ceiling to check against: refuse rather than guess.
      if (!cx.config.ok) {
        return refuse(
          `Budgets are capped by \`.github/loopx.yml\`, which is invalid; fix it first:\n${describeConfigErrors(cx.config.errors)}`,
        );
      }
      const ceiling = cx.config.config.budgets.goal;
      return apply((s, ctx) => setBudget(s, { limits: command.limits, ceiling, act: cx.act }, ctx));
    }
    case "harness":
      return apply((s, ctx) => setHarness(s, { harness: command.harness }, ctx));
    case "link":
      return planLink(cx, command.pr);
  }
}

/**
 * A PR-bound gate is approved only for the head it names, and only by a comment written
 * after GitHub reported that head and before any later one: the PR's head is read fresh
 * (a later push GitHub has not told us about yet refuses it), and the comment's own time is
 * judged by the kernel against the gate's. A comment with no time approves no PR-bound gate.
 */
async function planApprove(
  cx: CommandContext,
  gateKey: string,
  note: string | null,
): Promise<CommandPlan> {
  const gate = cx.goal.gates.find((g) => g.key === gateKey);
  const act = cx.act;
  if (!gate?.pr) return apply((s, ctx) => approveGate(s, { gate: gateKey, note, act }, ctx));
  const pull = await cx.port.getPull(cx.repo, gate.pr.number);
  const commentAt = cx.commentAt ?? new Date(0);
  return apply((s, ctx) =>
    approveGate(s, { gate: gateKey, note, headSha: pull.headSha, commentAt, act }, ctx),
  );
}

async function planLink(cx: CommandContext, number: number): Promise<CommandPlan> {
  let pull: Awaited<ReturnType<GitHubReads["getPull"]>>;
  try {
    pull = await cx.port.getPull(cx.repo, number);
  } catch (error) {
    if (error instanceof GitHubError && error.status === 404) {
      return refuse(
        `There is no pull request #${number} in this repository; link one with \`/loopx link #N\`.`,
      );
    }
    throw error;
  }
  const state = pull.merged ? "merged" : pull.state;
  return apply((s, ctx) =>
    linkPullRequest(s, { number, headRef: pull.headRef, headSha: pull.headSha, state }, ctx),
  );
}
