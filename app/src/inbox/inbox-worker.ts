import { GitHubError } from "@loopx/github";
import type { Delivery } from "@loopx/store";
import type { AppDeps } from "../deps.ts";
import { createDrainLoop, type DrainLoop } from "../drain-loop.ts";
import { runInLanes } from "./delivery-lanes.ts";
import { handlerOf, ignoredOutcome, processDelivery, unhandled } from "./process-delivery.ts";

const BATCH = 64;
/** At most this many deliveries of one installation per pass, so none starves the others. */
const PER_INSTALLATION = 16;
/**
 * Deliveries in flight at once (one issue's stay in order; see runInLanes). Each holds a
 * database connection for its transaction, so this stays under the pool (10 by default).
 */
const PARALLEL = 8;

/**
 * Processes stored deliveries. A handler that commits a transition marks its delivery in
 * that transaction; one that changes nothing is marked here, with the rest of its batch;
 * one that throws is retried with backoff (a crash in between leaves it to be processed
 * again, never skipped).
 */
export function createInboxWorker(
  deps: AppDeps,
  opts: {
    process?: (deps: AppDeps, d: Delivery) => ReturnType<typeof processDelivery>;
    /** After a pass in which a delivery changed something (it queued GitHub writes). */
    onApplied?: () => void;
  } = {},
): DrainLoop {
  const { store, log } = deps;
  const process = opts.process ?? processDelivery;
  return createDrainLoop(async () => {
    const batch = await store.pendingDeliveries(BATCH, { perInstallation: PER_INSTALLATION });
    // Ignored deliveries changed nothing, so their marks wait for the batch's end and go in
    // one statement; a crash before it only means they are looked at again.
    const ignored: { deliveryId: string; outcome: string }[] = [];
    // A kind of event no handler reads needs no order: in a lane it would only be a barrier
    // (most carry no issue or commit), holding back every delivery after it.
    const handled: Delivery[] = [];
    for (const delivery of batch) {
      if (handlerOf(delivery)) handled.push(delivery);
      else
        ignored.push({
          deliveryId: delivery.deliveryId,
          outcome: ignoredOutcome(unhandled(delivery)),
        });
    }
    const lanes = runInLanes(handled, PARALLEL, async (delivery) => {
      try {
        const outcome = await process(deps, delivery);
        if (outcome.kind === "ignored") {
          ignored.push({ deliveryId: delivery.deliveryId, outcome: ignoredOutcome(outcome.why) });
        }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.warn(
          `delivery ${delivery.deliveryId} (${delivery.event}.${delivery.action}) failed, will retry: ${message}`,
        );
        // GitHub's retry hint (rate limits, the content budget) beats the default backoff.
        const hinted = error instanceof GitHubError ? error.retryAfterSeconds : null;
        const retryAt =
          hinted === null
            ? undefined
            : new Date((await store.databaseNow()).getTime() + Math.max(hinted, 1) * 1000);
        await store.markDeliveryFailed(delivery.deliveryId, message, retryAt);
      }
    });
    try {
      await lanes;
    } finally {
      await store.markDeliveriesProcessed(ignored);
    }
    if (ignored.length < batch.length) opts.onApplied?.();
    return batch.length;
  }, log);
}
