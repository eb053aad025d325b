import type {
  Actor,
  GoalState,
  IntakeEffect,
  Refusal,
  TransitionContext,
  TransitionResult,
} from "@loopx/core";
import { type IssueRef, neutralize, neutralizeInline } from "@loopx/github";

export type { IntakeEffect };

export type KernelStep = (s: GoalState, ctx: TransitionContext) => TransitionResult;

/**
 * What a planner decided about one webhook: a kernel transition for the store to apply, or
 * nothing to change. Either way the GitHub writes it asks for are effects, committed with
 * the decision and written by the outbox afterwards — never by the handler.
 */
export type IntakePlan =
  | {
      kind: "apply";
      actor: Actor;
      transition: KernelStep;
      /** Written whatever the kernel says (a command's "seen" reaction). */
      effects: IntakeEffect[];
      /** Written only if the transition commits. */
      applied?: IntakeEffect[];
      /** Written only if the kernel refuses: the person is told why. */
      refused?: (refusal: Refusal) => IntakeEffect[];
    }
  | { kind: "ignore"; why: string; effects: IntakeEffect[] };

export const ignore = (why: string, effects: IntakeEffect[] = []): IntakePlan => ({
  kind: "ignore",
  why,
  effects,
});

/** Who a reply answers, and from which allowance it is written. */
export interface Addressee {
  repoId: number;
  login: string;
  /** `outsider`: someone without write access, answered from the outsiders' allowance. */
  lane: "loopx" | "outsider";
}

export function reply(issue: IssueRef, key: string, body: string, to: Addressee): IntakeEffect {
  return {
    kind: "reply",
    key,
    issue,
    body,
    lane: to.lane,
    to: { repoId: to.repoId, login: to.login },
  };
}

/**
 * One reply per comment (keyed by its id, so a redelivery finds it instead of posting
 * again): the command as typed, why it was not applied, and what would work. Everything a
 * person or the kernel wrote is neutralised; `help` is our own constant, shown as-is.
 */
export function replyToComment(
  issue: IssueRef,
  commentId: number,
  quoted: string,
  to: Addressee,
  message: string,
  help?: string,
): IntakeEffect {
  const lines = [`> ${neutralizeInline(quoted, 200)}`, "", neutralize(message)];
  if (help) lines.push("", help);
  return reply(issue, `reply:comment:${commentId}`, lines.join("\n"), to);
}

export function react(
  issue: IssueRef,
  commentId: number,
  content: "eyes" | "+1" | "confused",
): IntakeEffect {
  return { kind: "react", key: `react:${commentId}:${content}`, issue, commentId, content };
}
