import { z } from "zod";
import { todoBranch } from "../build-brief.ts";
import { TodoKey } from "../schemas/primitives.ts";
import type { GoalState } from "../schemas/state.ts";
import { MAX_PUSHED_PATHS } from "../schemas/todo.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import {
  awaitPullRequest,
  finishedBeforePersonPush,
  isAwaitingPersonPush,
} from "./await-pull-request.ts";
import { commit } from "./commit.ts";
import {
  appendEvidence,
  begin,
  emit,
  findTodo,
  isRefused,
  parseInput,
  refuse,
  requireTrusted,
} from "./kit.ts";
import { queueOpenPullRequest } from "./track-pull-request.ts";

export const PersonPushInput = z.object({
  todo: TodoKey,
  branch: z.string().min(1).max(255),
  headSha: z.string().regex(/^[0-9a-f]{40}$/),
  /** The files the push changed, as GitHub's `push` payload lists them. */
  paths: z.array(z.string().min(1).max(500)).max(MAX_PUSHED_PATHS).default([]),
});
export type PersonPushInput = z.input<typeof PersonPushInput>;

/**
 * Someone with write access pushed a todo's branch while the todo waited for exactly that:
 * its change touches workflow files, which GitHub refuses from LoopX, so it went to people
 * as a patch (push-refused.ts). Their push is the todo's delivery on its branch: `commit`
 * evidence, and the PR LoopX opens for it, as for a tick's push; the todo then waits for
 * that PR, or runs on from the branch when the pushed slice had not finished it. Their act stands in for any
 * gate the paths or opening the PR would have asked: they chose to push it. A push to a todo
 * branch at any other time is ordinary work on a PR, which the PR monitor follows.
 */
export function recordPersonPush(
  state: GoalState,
  input: PersonPushInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(PersonPushInput, input);
  if (isRefused(parsed)) return parsed;
  const denied = requireTrusted(ctx, "deliver a todo's change by pushing its branch");
  if (denied) return denied;
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const todo = findTodo(d, parsed.todo);
  if (isRefused(todo)) return todo;
  if (!isAwaitingPersonPush(todo)) {
    return refuse(
      "invalid_state",
      `${todo.key} is not waiting for a person's push (it is ${todo.status}): a push to its branch is ordinary work, followed on its pull request.`,
    );
  }
  const branch = todoBranch(d.state, todo.key);
  if (parsed.branch !== branch) {
    return refuse(
      "invalid_input",
      `branch: ${todo.key}'s branch is ${branch}, not ${parsed.branch}; push the patch there.`,
    );
  }
  const by = ctx.actor.kind === "human" ? `@${ctx.actor.login}` : "a person";
  appendEvidence(d, {
    kind: "commit",
    summary: `${by} pushed ${todo.key}'s change to ${branch}`,
    sha: parsed.headSha,
    todo: todo.key,
  });
  const fresh = parsed.paths.filter((p) => !todo.pushedPaths.includes(p));
  todo.pushedPaths = [...todo.pushedPaths, ...fresh].slice(-MAX_PUSHED_PATHS);
  emit(d, "todo.person_pushed", { todo: todo.key, headSha: parsed.headSha });
  if (finishedBeforePersonPush(todo)) awaitPullRequest(d, todo, null);
  else {
    // Its next slice goes on from the branch the person pushed.
    todo.status = "ready";
    todo.blockedReason = null;
    todo.updatedAt = d.ctx.now;
    d.checklist = true;
  }
  queueOpenPullRequest(d, { todo: todo.key, branch, headSha: parsed.headSha });
  return commit(d);
}
