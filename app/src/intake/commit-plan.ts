import type { GoalState } from "@loopx/core";
import type { Delivery } from "@loopx/store";
import type { AppDeps } from "../deps.ts";
import { applied, ignored, type Outcome, recorded } from "../webhooks/outcome.ts";
import { transitionContext } from "./goal-context.ts";
import type { IntakePlan } from "./intake-plan.ts";

/**
 * Hands a plan to the store: the transition (or the refusal, without a version bump), the
 * delivery mark and every GitHub write the plan asks for, as outbox rows, in one transaction.
 */
export async function commitPlan(
  deps: AppDeps,
  /** Null: another plan of the same delivery marks it (one review, several goals). */
  delivery: Delivery | null,
  about: { installationId: number; goal: GoalState | null },
  plan: IntakePlan,
): Promise<Outcome> {
  if (plan.kind === "ignore") {
    if (plan.effects.length === 0) return ignored(plan.why);
    if (delivery === null) throw new Error("replies are recorded with the delivery they answer");
    await deps.store.recordIntake({
      deliveryId: delivery.deliveryId,
      outcome: `ignored: ${plan.why}`,
      effects: plan.effects,
      installationId: about.installationId,
      goal: about.goal && { id: about.goal.goal.id, version: about.goal.goal.version },
    });
    return recorded(plan.why);
  }
  if (about.goal === null) throw new Error("a transition needs its goal");
  const { transition, effects, actor } = plan;
  const onApplied = [...effects, ...(plan.applied ?? [])];
  const result = await deps.store.apply(
    about.goal.goal.id,
    (s, now) => {
      const r = transition(s, transitionContext(deps, actor, now));
      return r.ok ? { ...r, effects: [...r.effects, ...onApplied] } : r;
    },
    {
      deliveryId: delivery?.deliveryId,
      // The goal the handler read is the transition's aggregate unless it changed since.
      loaded: about.goal,
      onRefused: (refusal) => [...effects, ...(plan.refused?.(refusal) ?? [])],
    },
  );
  return result.ok ? applied : ignored(`refused: ${result.refusal.code}`);
}
