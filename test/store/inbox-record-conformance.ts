/**
 * Recording webhook deliveries while others are being recorded, run against every driver:
 * the inbox keeps their arrival order, inserts a redelivery once however close behind it
 * comes, and refuses a bad delivery without losing the ones that arrived with it.
 */
import type { DeliveryInput, Store } from "@loopx/store";
import { dbOf, rowsOf, sql } from "@loopx/store/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { truncateAll } from "../support/databases.ts";

const delivery = (deliveryId: string, installationId = 7): DeliveryInput => ({
  deliveryId,
  event: "issue_comment",
  action: "created",
  installationId,
  payload: { comment: { id: deliveryId } },
});

export function describeInboxRecordConformance(name: string, store: () => Store): void {
  describe(`recording deliveries at once: ${name}`, () => {
    beforeEach(async () => {
      await truncateAll(store());
    });

    it("keeps the order they arrived in, and inserts a redelivery right behind its first once", async () => {
      // More than one INSERT takes (64): the order holds across the statements too.
      const ids = Array.from({ length: 100 }, (_, i) => `d-${String(99 - i).padStart(2, "0")}`);
      // Ids sort opposite to arrival, so an order that fell back to the id would show.
      const recorded = await Promise.all([
        ...ids.map((id) => store().recordDelivery(delivery(id))),
        store().recordDelivery({ ...delivery("d-05"), payload: { comment: { id: "again" } } }),
      ]);
      expect(recorded.slice(0, ids.length).every((r) => r.inserted)).toBe(true);
      expect(recorded.at(-1)).toEqual({ inserted: false });
      const pending = await store().pendingDeliveries(200);
      expect(pending.map((d) => d.deliveryId)).toEqual(ids);
      expect(pending.find((d) => d.deliveryId === "d-05")?.payload).toEqual({
        comment: { id: "d-05" },
      });
      const times = rowsOf(
        await dbOf(store()).execute(sql`SELECT count(DISTINCT received_at)::int AS n FROM inbox`),
      );
      expect(z.object({ n: z.number() }).parse(times[0]).n).toBe(ids.length);
    });

    it("refuses a delivery the database cannot hold and records the ones that arrived with it", async () => {
      // An installation id past PostgreSQL's bigint: the column refuses it.
      const outcomes = await Promise.allSettled([
        store().recordDelivery(delivery("first")),
        store().recordDelivery(delivery("before")),
        store().recordDelivery(delivery("bad", 2 ** 70)),
        store().recordDelivery(delivery("after")),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual([
        "fulfilled",
        "fulfilled",
        "rejected",
        "fulfilled",
      ]);
      const pending = await store().pendingDeliveries(10);
      expect(pending.map((d) => d.deliveryId)).toEqual(["first", "before", "after"]);
      // And the recorder still works after a refusal.
      expect(await store().recordDelivery(delivery("later"))).toEqual({ inserted: true });
    });

    it("stores a delivery settled on arrival processed, with its outcome, among pending ones", async () => {
      const outcome = "ignored: no handler for star.created";
      await Promise.all([
        store().recordDelivery(delivery("waits")),
        store().recordDelivery({ ...delivery("settled"), event: "star", settled: outcome }),
        store().recordDelivery(delivery("waits too")),
      ]);
      const pending = await store().pendingDeliveries(10);
      expect(pending.map((d) => d.deliveryId)).toEqual(["waits", "waits too"]);
      const Row = z.object({ outcome: z.string().nullable(), processed: z.boolean() });
      const rows = rowsOf(
        await dbOf(store()).execute(
          sql`SELECT outcome, processed_at IS NOT NULL AS processed FROM inbox ORDER BY received_at`,
        ),
      ).map((r) => Row.parse(r));
      expect(rows).toEqual([
        { outcome: null, processed: false },
        { outcome, processed: true },
        { outcome: null, processed: false },
      ]);
      // Marked again (a worker that read it before an upgrade): the first outcome stands.
      expect(
        await store().markDeliveriesProcessed([{ deliveryId: "settled", outcome: "ignored: x" }]),
      ).toBe(0);
    });
  });
}
