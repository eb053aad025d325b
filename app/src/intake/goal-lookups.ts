import type { TransitionResult } from "@loopx/core";
import type { Store } from "@loopx/store";

/**
 * Whether a comment already caused an accepted transition on this goal. The delivery id
 * dedups GitHub's redeliveries; this catches the same comment arriving under another
 * delivery id (a reconciler replay, a duplicated hook). Events of a command carry its
 * comment id (see tagWithComment), so the ledger is the record.
 */
export async function commentAlreadyApplied(
  store: Store,
  goalId: string,
  commentId: number,
): Promise<boolean> {
  return store.commentApplied(goalId, commentId);
}

/** Stamps every event of a transition with the comment that caused it (the audit trail). */
export function tagWithComment(result: TransitionResult, commentId: number): TransitionResult {
  if (!result.ok) return result;
  return {
    ...result,
    events: result.events.map((e) => ({ ...e, data: { ...e.data, commentId: String(commentId) } })),
  };
}

/** Goals of this repository with a gate bound to, or a link to, pull request `pr`. */
export async function goalIdsForPull(store: Store, repoId: number, pr: number): Promise<string[]> {
  return store.goalIdsForPull(repoId, pr);
}
