import type { Store } from "@loopx/store";
import { Routable } from "../webhooks/envelope.ts";
import type { VerifiedDelivery } from "../webhooks/webhook-intake.ts";
import { settledOnArrival } from "./process-delivery.ts";

/**
 * Stores a verified webhook in the inbox. One whose kind and payload settle it (no handler
 * reads it, a passing check run) is stored processed, with its outcome, and needs no worker
 * pass: `pending` says whether the worker has something to do.
 */
export async function recordArrival(
  store: Pick<Store, "recordDelivery">,
  arrived: VerifiedDelivery,
): Promise<{ pending: boolean }> {
  const routable = Routable.safeParse(arrived.payload);
  const delivery = {
    deliveryId: arrived.id,
    event: arrived.name,
    action: routable.data?.action ?? null,
    installationId: routable.data?.installation?.id ?? null,
    payload: arrived.payload,
    payloadText: arrived.body,
  };
  const settled = settledOnArrival(delivery);
  await store.recordDelivery({ ...delivery, settled });
  return { pending: settled === null };
}
