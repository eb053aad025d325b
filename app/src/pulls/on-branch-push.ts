import { isAwaitingPersonPush, recordPersonPush } from "@loopx/core";
import { z } from "zod";
import { actorFor, isBot } from "../authority.ts";
import type { AppDeps } from "../deps.ts";
import { applyForDelivery, outcomeOf } from "../intake/goal-context.ts";
import { envelope } from "../webhooks/envelope.ts";
import { on } from "../webhooks/on.ts";
import { ignored } from "../webhooks/outcome.ts";

const Files = z.array(z.string()).optional();

/** GitHub's `push` payload, as far as a todo branch's push is read. */
export const BranchPushed = z.object({
  ...envelope,
  ref: z.string(),
  after: z.string(),
  deleted: z.boolean().optional(),
  commits: z
    .array(z.object({ added: Files, modified: Files, removed: Files }))
    .max(2048)
    .optional(),
});
export type BranchPushed = z.infer<typeof BranchPushed>;

const TODO_BRANCH = /^refs\/heads\/loopx\/([0-9]+)-(T[1-9][0-9]*)$/;
const SHA = /^[0-9a-f]{40}$/;

/**
 * `push`: a person pushed a todo's branch. That matters only when the todo waits for exactly
 * that (its change touches workflow files, which GitHub refuses from LoopX, so people got it
 * as a patch): then the push delivers it and LoopX opens its PR. The pusher's write access is
 * read now, at the time of the act. Ticks push through the tick API, not through here, and
 * pushes to a PR LoopX already opened are followed on the PR (`synchronize`).
 */
export const onBranchPush = on(BranchPushed, async (deps: AppDeps, delivery, e) => {
  const match = TODO_BRANCH.exec(e.ref);
  if (!match?.[1] || !match[2]) return ignored("not a LoopX todo branch");
  if (e.deleted || !SHA.test(e.after) || /^0+$/.test(e.after)) {
    return ignored("the branch was deleted");
  }
  if (isBot(e.sender)) return ignored("pushed by an App or a bot, not a person");
  const goal = await deps.store.findGoalByIssue(e.repository.id, Number(match[1]));
  if (!goal) return ignored(`no goal for #${match[1]}`);
  const todo = goal.todos.find((t) => t.key === match[2]);
  if (!todo || !isAwaitingPersonPush(todo)) {
    return ignored(`${match[2]} does not wait for a person's push`);
  }
  const port = await deps.readsFor(e.installation.id);
  const repo = { owner: e.repository.owner.login, repo: e.repository.name };
  const actor = await actorFor(port, repo, e.sender);
  const paths = [
    ...new Set(
      (e.commits ?? []).flatMap((c) => [
        ...(c.added ?? []),
        ...(c.modified ?? []),
        ...(c.removed ?? []),
      ]),
    ),
  ];
  const result = await applyForDelivery(deps, goal, delivery.deliveryId, actor, (s, ctx) =>
    recordPersonPush(
      s,
      { todo: todo.key, branch: e.ref.slice("refs/heads/".length), headSha: e.after, paths },
      ctx,
    ),
  );
  if (!result.ok)
    deps.log.info(`push to ${e.ref} by @${e.sender.login}: ${result.refusal.message}`);
  return outcomeOf(result);
});
