import { z } from "zod";
import { TodoKey } from "../schemas/primitives.ts";
import type { GoalState } from "../schemas/state.ts";
import { MAX_PUSHED_PATHS, type Todo } from "../schemas/todo.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import { completeTodo } from "./complete-todo.ts";
import { appendEvidence, begin, type Draft, isRefused, parseInput, refuse } from "./kit.ts";

export const PushedCommitInput = z.object({
  todo: TodoKey,
  sha: z.string().regex(/^[0-9a-f]{7,64}$/),
  summary: z.string().trim().min(1).max(500),
  /** The files the push changed on the todo's branch, as the report job diffed them. */
  paths: z.array(z.string().min(1).max(500)).max(MAX_PUSHED_PATHS).default([]),
});
export type PushedCommitInput = z.input<typeof PushedCommitInput>;

/**
 * A tick's commit reached the todo's branch: `commit` evidence, and the files it changed
 * added to what the todo's branch holds. Those files are what other todos must not start
 * from the default branch without (frontier.ts); the newest are kept when there are many.
 */
export function recordPushedCommit(
  state: GoalState,
  input: PushedCommitInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(PushedCommitInput, input);
  if (isRefused(parsed)) return parsed;
  if (ctx.actor.kind !== "agent") {
    return refuse("not_authorized", "Only a tick's report records the commits it pushed.");
  }
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const todo = d.state.todos.find((t) => t.key === parsed.todo);
  if (!todo) return refuse("not_found", `todo: there is no todo ${parsed.todo} on this goal.`);
  const evidence = appendEvidence(d, {
    kind: "commit",
    summary: parsed.summary,
    sha: parsed.sha,
    todo: todo.key,
  });
  reviewAnswered(d, todo, evidence);
  const fresh = parsed.paths.filter((p) => !todo.pushedPaths.includes(p));
  if (fresh.length > 0) {
    todo.pushedPaths = [...todo.pushedPaths, ...fresh].slice(-MAX_PUSHED_PATHS);
    todo.updatedAt = ctx.now;
  }
  return commit(d);
}

/**
 * A review todo's push is its answer: the change request was about the head before it, and
 * the reviewer speaks next (a new change request queues the next answer). Left open, the
 * todo would run again before anyone looked: a slice with nothing to answer.
 */
function reviewAnswered(d: Draft, todo: Todo, evidence: string): void {
  if (todo.kind !== "review" || todo.origin !== "pr-monitor") return;
  if (todo.status === "done" || todo.status === "dropped") return;
  const pr = d.state.pullRequests.find(
    (p) => p.state === "open" && p.monitor.todos.includes(todo.key),
  );
  if (!pr) return;
  completeTodo(d, todo, {
    evidenceIds: [evidence],
    continuation: { kind: "goal_active" },
    by: `its push to #${pr.number}`,
  });
}
