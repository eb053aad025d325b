import type { Delivery, Store } from "@loopx/store";
import { describe, expect, it } from "vitest";
import type { AppDeps } from "../src/deps.ts";
import { createInboxWorker } from "../src/inbox/inbox-worker.ts";
import { applied } from "../src/webhooks/outcome.ts";
import { storedDelivery } from "./stored-delivery.ts";

const delivery = (id: string, event: string, action: string, payload: unknown): Delivery =>
  storedDelivery(id, payload, { event, action });
const repository = { id: 7 };
const labeled = (id: string, issue: number) =>
  delivery(id, "issues", "labeled", { repository, issue: { number: issue } });
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

/** One pass over `batch` with a handler that takes a while: what ran, how many at once, the marks. */
async function pass(batch: Delivery[]) {
  let served = false;
  const marks: { deliveryId: string; outcome: string }[] = [];
  const store = {
    pendingDeliveries: async () => {
      if (served) return [];
      served = true;
      return batch;
    },
    markDeliveriesProcessed: async (m: { deliveryId: string; outcome: string }[]) => {
      marks.push(...m);
      return m.length;
    },
  } satisfies Partial<Store>;
  const log = { info: () => {}, warn: () => {}, error: () => {} };
  const ran: string[] = [];
  let inFlight = 0;
  let most = 0;
  const worker = createInboxWorker({ store, log } as unknown as AppDeps, {
    process: async (_deps, d) => {
      ran.push(d.deliveryId);
      most = Math.max(most, ++inFlight);
      await tick();
      inFlight--;
      return applied;
    },
  });
  worker.kick();
  await worker.idle();
  return { ran, most, marks };
}

describe("the inbox worker", () => {
  it("marks a kind of event no handler reads without holding back the deliveries after it", async () => {
    const { ran, most, marks } = await pass([
      labeled("one", 1),
      delivery("starred", "star", "created", { repository, starred_at: null }),
      labeled("two", 2),
    ]);
    expect(ran).toEqual(["one", "two"]);
    // A star names no issue: in a lane it would be a barrier, and "two" would wait for "one".
    expect(most).toBe(2);
    expect(marks).toEqual([
      { deliveryId: "starred", outcome: "ignored: no handler for star.created" },
    ]);
  });

  it("still runs an event about no single issue alone, when a handler reads it", async () => {
    const { ran, most } = await pass([
      labeled("one", 1),
      delivery("moved", "installation_repositories", "removed", { installation: { id: 1 } }),
      labeled("two", 2),
    ]);
    expect(ran).toEqual(["one", "moved", "two"]);
    expect(most).toBe(1);
  });
});
