import type { CommentRef, IssueRef } from "@loopx/github";
import type { EffectContext } from "./perform-effect.ts";

/**
 * A keyed comment written once per key, without listing the issue's comments on the write's
 * first try. Its id is stored under `comment:<key>` once GitHub gives it; a row with no id yet
 * says a POST went out whose answer was never recorded (a crash, a timeout after GitHub
 * committed), so that retry, like any retry of the row, looks for the comment by its key first.
 */
export async function keyedComment(
  { deps, port, state, item }: Pick<EffectContext, "deps" | "port" | "state" | "item">,
  issue: IssueRef,
  key: string,
  body: string,
): Promise<CommentRef> {
  const target = `comment:${key}` as const;
  const known = await deps.store.getProjection(state.goal.id, target);
  if (known?.githubId != null) return { id: known.githubId, created: false };
  const unwritten = known === null && item.attempts === 0;
  if (unwritten) await deps.store.setProjection(state.goal.id, target, { githubId: null });
  const ref = await port.ensureComment(issue, key, body, { unwritten });
  await deps.store.setProjection(state.goal.id, target, { githubId: ref.id });
  return ref;
}
