/**
 * The inbox batch, run against every driver: which deliveries a batch takes (round-robin
 * over installations, each in arrival order, due ones only) and marking a batch's ignored
 * deliveries in one statement.
 */
import type { Store } from "@loopx/store";
import { dbOf, sql } from "@loopx/store/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { truncateAll } from "../support/databases.ts";

export function describeInboxBatchConformance(name: string, store: () => Store): void {
  describe(`inbox batch: ${name}`, () => {
    beforeEach(async () => {
      await truncateAll(store());
    });

    const deliver = (deliveryId: string, installationId: number | null, minutesAgo: number) =>
      store()
        .recordDelivery({ deliveryId, event: "issues", installationId, payload: {} })
        .then(() =>
          dbOf(store()).execute(
            sql`UPDATE inbox SET received_at = now() - ${minutesAgo} * interval '1 minute'
                WHERE delivery_id = ${deliveryId}`,
          ),
        );

    it("takes each installation's oldest due deliveries, round-robin, the installation-less ones too", async () => {
      // Arrival order differs from id and installation order on purpose.
      await deliver("c-late", 3, 1);
      await deliver("a-2", 1, 5);
      await deliver("a-1", 1, 9);
      await deliver("a-3", 1, 2);
      await deliver("b-1", 2, 8);
      await deliver("none-1", null, 7);
      await deliver("none-2", null, 3);
      await deliver("c-early", 3, 10);
      await deliver("b-later", 2, 4);
      // Not due yet: skipped, and the installation's next one is taken instead.
      await store().markDeliveryFailed("b-1", "boom", new Date(Date.now() + 3_600_000));

      const ids = (limit: number, per?: number) =>
        store()
          .pendingDeliveries(limit, per === undefined ? {} : { perInstallation: per })
          .then((ds) => ds.map((d) => d.deliveryId));
      // First rounds by each installation's oldest: c-early (10), a-1 (9), none-1 (7), b-later (4).
      expect(await ids(4)).toEqual(["c-early", "a-1", "none-1", "b-later"]);
      expect(await ids(100, 2)).toEqual([
        "c-early",
        "a-1",
        "none-1",
        "b-later",
        "a-2",
        "none-2",
        "c-late",
      ]);
      expect(await ids(100, 1)).toEqual(["c-early", "a-1", "none-1", "b-later"]);
      await store().markDeliveryProcessed("a-1");
      expect(await ids(3)).toEqual(["c-early", "none-1", "a-2"]);
    });

    it("marks many deliveries at once, each with its outcome, and only pending ones", async () => {
      await deliver("x", 1, 1);
      await deliver("y", 1, 1);
      await deliver("z", 1, 1);
      expect(await store().markDeliveryProcessed("z", "applied")).toBe(true);
      expect(
        await store().markDeliveriesProcessed([
          { deliveryId: "x", outcome: "ignored: no handler for star.created" },
          { deliveryId: "y", outcome: "ignored: no goal watches #4" },
          { deliveryId: "z", outcome: "ignored: late" },
          { deliveryId: "missing", outcome: "ignored: never stored" },
        ]),
      ).toBe(2);
      expect(await store().markDeliveriesProcessed([])).toBe(0);
      const outcome = async (id: string) => (await store().getDelivery(id))?.outcome;
      expect(await outcome("x")).toBe("ignored: no handler for star.created");
      expect(await outcome("y")).toBe("ignored: no goal watches #4");
      expect(await outcome("z")).toBe("applied");
      expect(await store().pendingDeliveries(10)).toEqual([]);
    });
  });
}
