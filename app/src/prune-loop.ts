import type { Store } from "@loopx/store";
import type { Logger } from "./deps.ts";
import { createDrainLoop, type DrainLoop } from "./drain-loop.ts";

/** Rows per table per statement: short transactions, so pruning never holds up the inbox. */
export const PRUNE_BATCH = 500;
/** Retention is counted in days; an hourly pass keeps the tables within an hour of it. */
export const PRUNE_INTERVAL_MS = 3_600_000;

/**
 * Deletes what retention lets go (store.pruneRetained), a batch at a time until a batch
 * finds nothing; kicked on a timer by the App's `start`.
 */
export function createPruneLoop(
  store: Pick<Store, "pruneRetained">,
  log: Logger,
  opts: { retentionMs: number; batch?: number },
): DrainLoop {
  const batch = opts.batch ?? PRUNE_BATCH;
  return createDrainLoop(async () => {
    const pruned = await store.pruneRetained({ retentionMs: opts.retentionMs, batch });
    return pruned.inbox + pruned.outbox;
  }, log);
}
