import type { Effect, GoalState, TransitionContext, TransitionResult } from "@loopx/core";

export type Step = (state: GoalState, ctx: TransitionContext) => TransitionResult;

/**
 * Several kernel transitions as one (one delivery may tick two boxes and edit the text): each
 * step runs on the previous step's state; a refused step is skipped (the others still
 * count); all refused → the first refusal. The store bumps the version once, so the
 * dispatch effect each commit may add is kept once, keyed for that one version.
 */
export function chainTransitions(steps: readonly Step[]): Step {
  return (state, ctx) => {
    let current = state;
    let first: Extract<TransitionResult, { ok: false }> | null = null;
    const events: Extract<TransitionResult, { ok: true }>["events"] = [];
    const effects = new Map<string, Effect>();
    let applied = 0;
    for (const step of steps) {
      const r = step(current, ctx);
      if (!r.ok) {
        first ??= r;
        continue;
      }
      applied += 1;
      current = r.state;
      events.push(...r.events);
      for (const e of r.effects) {
        if (e.kind === "dispatch")
          for (const k of effects.keys()) if (k.startsWith("dispatch:")) effects.delete(k);
        effects.delete(e.key);
        effects.set(e.key, e);
      }
    }
    if (applied === 0) {
      return first ?? { ok: false, refusal: { code: "invalid_input", message: "nothing to do" } };
    }
    const version = state.goal.version + 1;
    // An explicit wake is keyed by version: renumber it to the chain's one version bump.
    const out = [...effects.values()].map((e) =>
      e.kind === "dispatch" && e.key.startsWith("dispatch:v")
        ? { ...e, key: `dispatch:v${version}` }
        : e,
    );
    // One person's act (an edit ticking three boxes) counts once, however many steps it took.
    const acts = state.goal.outcomes.personActs;
    const outcomes = {
      ...current.goal.outcomes,
      personActs: acts + Math.min(1, current.goal.outcomes.personActs - acts),
    };
    return {
      ok: true,
      state: { ...current, goal: { ...current.goal, version, outcomes } },
      events,
      effects: out,
    };
  };
}

/** A transition whose GitHub writes are dropped: nothing can be written (uninstalled, gone). */
export function withoutEffects(step: Step): Step {
  return (state, ctx) => {
    const r = step(state, ctx);
    return r.ok ? { ...r, effects: [] } : r;
  };
}

/** A transition with extra effects computed from what it did (e.g. a receipt). */
export function withEffects(
  step: Step,
  extra: (r: Extract<TransitionResult, { ok: true }>) => Effect[],
): Step {
  return (state, ctx) => {
    const r = step(state, ctx);
    return r.ok ? { ...r, effects: [...r.effects, ...extra(r)] } : r;
  };
}
