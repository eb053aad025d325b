import { z } from "zod";
import { TodoKey } from "../schemas/primitives.ts";
import type { GoalState } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { isAwaitingPullRequest } from "./await-pull-request.ts";
import { commit } from "./commit.ts";
import { completeTodo, continuationAfter, openPullRequestOf } from "./complete-todo.ts";
import { appendEvidence, begin, isRefused, parseInput, refuse, resetBackoff } from "./kit.ts";

export const BranchInBaseInput = z.object({
  todo: TodoKey,
  branch: z.string().regex(/^loopx\/[0-9]+-T[1-9][0-9]*$/, "a LoopX todo branch"),
  headSha: z.string().regex(/^[0-9a-f]{7,64}$/),
  base: z.string().min(1).max(255),
});
export type BranchInBaseInput = z.input<typeof BranchInBaseInput>;

/**
 * GitHub refused the PR of a todo's branch because its head is already in the base (someone
 * merged the branch another way). That is evidence GitHub gives, not the agent: a todo
 * waiting for that branch's PR is done with it, and there is no PR left to wait for.
 */
export function recordBranchInBase(
  state: GoalState,
  input: BranchInBaseInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(BranchInBaseInput, input);
  if (isRefused(parsed)) return parsed;
  if (ctx.actor.kind !== "app") {
    return refuse("not_authorized", "Only LoopX records what GitHub says about its branches.");
  }
  const d = begin(state, ctx, { statuses: ["active", "paused"] });
  if (isRefused(d)) return d;
  const todo = d.state.todos.find((t) => t.key === parsed.todo);
  if (!todo) return refuse("not_found", `There is no todo ${parsed.todo} on this goal.`);
  const { branch, headSha, base } = parsed;
  const summary = `${branch} at ${headSha.slice(0, 7)} is already in ${base}: GitHub sees no commits between them`;
  if (d.state.evidence.some((e) => e.sha === headSha && e.summary === summary)) {
    return refuse(
      "duplicate",
      `${branch} at ${headSha.slice(0, 7)} is already recorded in ${base}.`,
    );
  }
  const evidence = appendEvidence(d, { kind: "commit", summary, sha: headSha, todo: todo.key });
  if (isAwaitingPullRequest(todo) && openPullRequestOf(d.state, todo) === null) {
    completeTodo(d, todo, {
      evidenceIds: [evidence],
      continuation: continuationAfter(d, new Set([todo.key]), `${branch} is in ${base}`),
      by: `${base} on GitHub`,
      delivered: true,
    });
  }
  resetBackoff(d, `${todo.key}'s work is in ${base}`);
  return commit(d);
}
