import type { Actor, GoalState, TransitionContext, TransitionResult } from "@loopx/core";
import type { IssueRef, RepoName } from "@loopx/github";
import type { Applied } from "@loopx/store";
import type { AppDeps } from "../deps.ts";
import type { Repository } from "../webhooks/envelope.ts";
import { applied, ignored, type Outcome } from "../webhooks/outcome.ts";

export const repoName = (r: Repository): RepoName => ({ owner: r.owner.login, repo: r.name });
export const issueRef = (r: Repository, number: number): IssueRef => ({ ...repoName(r), number });

/** The kernel's context for one transition: every transition the App applies is given this. */
export function transitionContext(
  deps: Pick<AppDeps, "newId" | "backoffLadderMinutes">,
  actor: Actor,
  now: Date,
): TransitionContext {
  const ladder = deps.backoffLadderMinutes;
  return { actor, now, newId: deps.newId, ...(ladder ? { backoffLadderMinutes: ladder } : {}) };
}

/**
 * Applies one transition for a delivery. A refusal is returned (the delivery is marked
 * processed with it, so it is not retried forever); the caller may answer the person.
 */
export async function applyForDelivery(
  deps: AppDeps,
  goal: GoalState,
  deliveryId: string,
  actor: Actor,
  transition: (s: GoalState, ctx: TransitionContext) => TransitionResult,
): Promise<Applied> {
  return deps.store.apply(
    goal.goal.id,
    (s, now) => transition(s, transitionContext(deps, actor, now)),
    { deliveryId, loaded: goal },
  );
}

export function outcomeOf(result: Applied): Outcome {
  return result.ok ? applied : ignored(`refused: ${result.refusal.code}`);
}
