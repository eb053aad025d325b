import { type PrOutcome, prChecksVerdict, prOutcome } from "../pr-outcome.ts";
import type { GoalState, PullRequest } from "../schemas/state.ts";
import type { Todo } from "../schemas/todo.ts";
import { openPullRequestOf } from "./complete-todo.ts";
import type { Draft } from "./kit.ts";
import { appendEvidence } from "./kit.ts";
import { actOnPrOutcome } from "./pr-outcome-actions.ts";

/**
 * The outcomes that queue a todo on the PR's branch (or ask because those todos ran out).
 * While the PR's own todo still has slices to run they wait: that todo pushes to the same
 * branch next, so a repair, review or rebase slice beside it would redo or undo its work,
 * and a red check on a half-done head is what its next slice finishes anyway.
 */
const HELD = new Set<PrOutcome["kind"]>(["repair", "repairs_exhausted", "review", "rebase"]);

/**
 * The PR's own todo is still to be worked: its agent has not said it is finished. Once it
 * has, the todo waits for this PR to merge (or for a writer's evidence) and runs no slice.
 */
export function ownTodoAtWork(state: GoalState, pr: PullRequest): boolean {
  if (pr.todo === null || pr.state !== "open") return false;
  return state.todos.find((t) => t.key === pr.todo)?.status === "ready";
}

/**
 * What the monitor does about `outcome` while the PR's own todo is at work: nothing that
 * queues a todo. A failing head is still recorded as evidence, which the next slice's brief
 * lists, so that slice knows CI judged what it pushed. Returns whether evidence was added.
 */
export function holdForOwnTodo(
  d: Draft,
  pr: PullRequest,
  outcome: PrOutcome,
): { outcome: PrOutcome; noted: boolean } {
  if (!HELD.has(outcome.kind) || !ownTodoAtWork(d.state, pr)) return { outcome, noted: false };
  const held: PrOutcome = {
    kind: "quiet",
    reason: `${pr.todo} is still at work on #${pr.number}: its next slice answers the ${outcome.kind}`,
  };
  const verdict = prChecksVerdict(pr, d.ctx.now);
  if (verdict.kind !== "failing") return { outcome: held, noted: false };
  let noted = false;
  for (const c of verdict.failing) {
    const summary = `${c.name} failed on #${pr.number} at ${pr.headSha.slice(0, 12)}`;
    if (d.state.evidence.some((e) => e.kind === "check" && e.summary === summary)) continue;
    appendEvidence(d, { kind: "check", summary, todo: pr.todo, url: c.url, sha: pr.headSha });
    noted = true;
  }
  return { outcome: held, noted };
}

/** Acts on the outcome once: the fingerprint is kept, so the same fact announced again is quiet. */
export function actOnce(
  d: Draft,
  pr: PullRequest,
  outcome: PrOutcome,
  merge: { gate: boolean; scopes: readonly string[] },
): boolean {
  if (outcome.kind === "quiet" || pr.monitor.fingerprints.includes(outcome.fingerprint)) {
    return false;
  }
  pr.monitor.fingerprints = [...pr.monitor.fingerprints, outcome.fingerprint].slice(-200);
  actOnPrOutcome(d, pr, outcome, merge);
  return true;
}

/**
 * `todo` stopped being at work without a push (its agent said it is finished, or a writer
 * ticked it): what the monitor held back for it is acted on now, from the last reading. A
 * slice that pushed waits for that head's reading instead; this one's is about the old head.
 */
export function actOnWhatWasHeld(d: Draft, todo: Todo): boolean {
  const pr = openPullRequestOf(d.state, todo);
  if (!pr?.monitor.watching || ownTodoAtWork(d.state, pr)) return false;
  const outcome = prOutcome(pr, d.ctx.now, pr.monitor.repairLimit);
  if (!HELD.has(outcome.kind)) return false;
  // Only the held kinds act here, and none of them reads the merge options.
  return actOnce(d, pr, outcome, { gate: false, scopes: [] });
}
