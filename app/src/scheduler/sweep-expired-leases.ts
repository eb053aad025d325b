import { expireLeases } from "@loopx/core";
import type { AppDeps } from "../deps.ts";
import { transitionContext } from "../intake/goal-context.ts";

/**
 * Ends every lease past its expiry on the database clock: each such tick is charged its
 * cap and leaves `host_failure` evidence, its todo returns to ready, and the backoff grows
 * (all in the kernel's expireLeases). Returns how many goals changed.
 */
export async function sweepExpiredLeases(deps: AppDeps, limit = 100): Promise<number> {
  const goalIds = await deps.store.goalsWithExpiredLeases(limit);
  let changed = 0;
  for (const goalId of goalIds) {
    const applied = await deps.store.apply(goalId, (state, now) =>
      expireLeases(
        state,
        transitionContext(deps, { kind: "system", reason: "lease expired" }, now),
      ),
    );
    // not_found: a result or another replica got there first — nothing left to expire.
    if (applied.ok) changed += 1;
  }
  return changed;
}
