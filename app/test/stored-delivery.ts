import type { Delivery } from "@loopx/store";

/** A delivery as the inbox stores it, pending: `issues.edited` unless the event is given. */
export function storedDelivery(
  id: string,
  payload: unknown,
  kind: { event?: string; action?: string } = {},
): Delivery {
  return {
    deliveryId: id,
    event: kind.event ?? "issues",
    action: kind.action ?? "edited",
    installationId: 1,
    payload,
    receivedAt: new Date(0),
    processedAt: null,
    outcome: null,
    attempts: 0,
    nextAttemptAt: new Date(0),
    error: null,
  };
}
