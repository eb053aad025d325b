import { openStore, type Store } from "@loopx/store";
import { dbOf, rowsOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sharedPglite, truncateAll } from "../../test/support/databases.ts";
import { createPruneLoop } from "../src/prune-loop.ts";

const DAY = 86_400_000;
const log = { info: () => {}, warn: () => {}, error: (m: string) => expect.fail(m) };

describe("the prune loop", () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ pglite: await sharedPglite() });
    await store.migrate();
  });
  afterAll(async () => {
    await store.close();
  });
  beforeEach(async () => {
    await truncateAll(store);
  });

  const left = async () =>
    rowsOf(await dbOf(store).execute(sql`SELECT delivery_id FROM inbox ORDER BY delivery_id`)).map(
      (r) => String(Object.values(Object(r))[0]),
    );

  it("drains every batch retention lets go, and keeps pending and recent deliveries", async () => {
    for (let i = 0; i < 7; i++) {
      await store.recordDelivery({ deliveryId: `old-${i}`, event: "issues", payload: {} });
      await store.markDeliveryProcessed(`old-${i}`);
    }
    await store.recordDelivery({ deliveryId: "recent", event: "issues", payload: {} });
    await store.markDeliveryProcessed("recent");
    await store.recordDelivery({ deliveryId: "waiting", event: "issues", payload: {} });
    await dbOf(store).execute(
      sql`UPDATE inbox SET processed_at = now() - interval '20 days', received_at = now() - interval '20 days'
          WHERE delivery_id LIKE 'old-%'`,
    );
    await dbOf(store).execute(
      sql`UPDATE inbox SET received_at = now() - interval '90 days' WHERE delivery_id = 'waiting'`,
    );
    const calls: number[] = [];
    const counting: Pick<Store, "pruneRetained"> = {
      pruneRetained: async (opts) => {
        const pruned = await store.pruneRetained(opts);
        calls.push(pruned.inbox);
        return pruned;
      },
    };
    const loop = createPruneLoop(counting, log, { retentionMs: 14 * DAY, batch: 3 });
    loop.kick();
    await loop.idle();
    // Three batches with rows (3, 3, 1), then one that finds none and ends the pass.
    expect(calls).toEqual([3, 3, 1, 0]);
    expect(await left()).toEqual(["recent", "waiting"]);
    await loop.stop();
  });

  it("prunes nothing younger than the retention time", async () => {
    await store.recordDelivery({ deliveryId: "d", event: "issues", payload: {} });
    await store.markDeliveryProcessed("d");
    await dbOf(store).execute(
      sql`UPDATE inbox SET processed_at = now() - interval '13 days' WHERE delivery_id = 'd'`,
    );
    const loop = createPruneLoop(store, log, { retentionMs: 14 * DAY });
    loop.kick();
    await loop.idle();
    expect(await left()).toEqual(["d"]);
    await loop.stop();
  });
});
