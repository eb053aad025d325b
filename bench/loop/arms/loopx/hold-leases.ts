/**
 * LoopX without its leases, for the ablation: before the bench moves any clock, every live
 * tick's lease is renewed to a day ahead (the longest the kernel grants), so none ever expires
 * while the cell runs. A claim then ends only when its tick reports; everything else (the
 * App's sweep, its refusal of a result from a tick it already ended, the claims) stays as
 * shipped.
 */
import { randomUUID } from "node:crypto";
import { renewLease } from "@loopx/core";
import type { Store } from "@loopx/store";

const DAY_MS = 24 * 3_600_000;

/** Renews every live tick of these goals; a tick its goal's pause or end interrupted is left. */
export async function holdLeases(store: Store, goalIds: readonly string[]): Promise<number> {
  let renewed = 0;
  for (const goalId of goalIds) {
    const state = await store.loadGoal(goalId);
    for (const tick of state?.ticks ?? []) {
      if (tick.finishedAt !== null) continue;
      const applied = await store.apply(goalId, (s, now) =>
        renewLease(
          s,
          { tickId: tick.id, leaseToken: tick.leaseToken, leaseTtlMs: DAY_MS },
          { actor: { kind: "system", reason: "the bench holds leases" }, now, newId: randomUUID },
        ),
      );
      if (applied.ok) renewed += 1;
    }
  }
  return renewed;
}
