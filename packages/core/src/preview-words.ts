import { receiptWords } from "./receipt-words.ts";
import type { Effect, TransitionResult } from "./schemas/transition.ts";

const text = (v: unknown) => (typeof v === "string" ? v : "");

/** What one change a command would make reads as, for a person deciding whether to make it. */
function changeWords(e: { type: string; data: Record<string, unknown> }): string | null {
  const todo = text(e.data.todo);
  switch (e.type) {
    case "todo.added":
      return `add ${todo} “${text(e.data.title)}”`;
    case "todo.dropped":
      return `drop ${todo}${e.data.reason ? ` (${text(e.data.reason)})` : ""}`;
    case "goal.paused":
      return "pause the goal: no new tick starts until it is resumed";
    case "goal.resumed":
      return "resume the goal";
    case "goal.stopped":
      return "stop the goal for good: its open todos stay as they are";
    case "goal.replan_requested":
      return "have the next slice revise the todos";
    case "goal.harness_changed":
      return `switch the agent from ${text(e.data.before)} to ${text(e.data.after)}`;
    case "goal.woken":
      return "wake the loop now";
    case "pull_request.linked":
      return `attach pull request #${String(e.data.pr)} to this goal`;
    case "goal.status_requested":
      return "refresh the status comment";
    default:
      return null;
  }
}

const effectWords = (e: Effect): string | null =>
  e.kind === "dispatch" ? "start a tick now" : e.kind === "close_issue" ? "close the issue" : null;

/**
 * A command's dry run in words: what it would change, and the receipt it would leave, from
 * the transition run on the goal as it is (nothing committed). A refusal says why, as the
 * real command would.
 */
export function previewWords(result: TransitionResult): string {
  if (!result.ok) {
    return `Dry run, nothing changed: this command would be refused. ${result.refusal.message}`;
  }
  const changes = [
    ...result.events.flatMap((e) => {
      const words = changeWords(e);
      if (words !== null) return [words];
      const receipt = receiptWords(e);
      return receipt ? [`leave the receipt “${receipt.text}”`] : [];
    }),
    ...result.effects.flatMap((e) => effectWords(e) ?? []),
  ];
  return dryRunWords(changes);
}

/** A dry run's answer from the changes the command would make, each said once. */
export function dryRunWords(changes: readonly string[]): string {
  const unique = [...new Set(changes)];
  if (unique.length === 0) return "Dry run, nothing changed: this command would change nothing.";
  return [
    "Dry run, nothing changed. Without `--dry-run`, this command would:",
    ...unique.map((c) => `- ${c}`),
  ].join("\n");
}
