/**
 * The inbox's delivery records, run against every driver: recorded once, marked processed
 * with the transition that handled them, refusals, and fairness across installations.
 */
import type { Store } from "@loopx/store";
import { dbOf, eq, rowsOf, sql, tables } from "@loopx/store/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { truncateAll } from "../support/databases.ts";
import { pauseFixture } from "./fixtures.ts";
import { createdGoal, rowCount } from "./goal-rows.ts";

export function describeDeliveryConformance(name: string, store: () => Store): void {
  describe(`deliveries: ${name}`, () => {
    beforeEach(async () => {
      await truncateAll(store());
    });

    it("records a delivery once", async () => {
      const first = await store().recordDelivery({
        deliveryId: "d1",
        event: "issues",
        action: "labeled",
        installationId: 7,
        payload: { x: 1 },
      });
      const second = await store().recordDelivery({
        deliveryId: "d1",
        event: "issues",
        action: "labeled",
        installationId: 7,
        payload: { x: 2 },
      });
      expect(first).toEqual({ inserted: true });
      expect(second).toEqual({ inserted: false });
      const d = await store().getDelivery("d1");
      expect(d?.payload).toEqual({ x: 1 });
    });

    it("records a delivery whose payload carries a lone surrogate, replaced by U+FFFD", async () => {
      const r = await store().recordDelivery({
        deliveryId: "d-surrogate",
        event: "issues",
        payload: { issue: { title: "bad \ud800 title" } },
      });
      expect(r).toEqual({ inserted: true });
      const d = await store().getDelivery("d-surrogate");
      expect(d?.payload).toEqual({ issue: { title: "bad \ufffd title" } });
    });

    it("stores a payload's JSON text as it came: its numbers whole, its escapes read", async () => {
      // Past 2^53 JSON.parse rounds; the text keeps the digits GitHub sent.
      const body = '{"id": 9007199254740993, "title": "caf\\u00e9 \\u2713"}';
      await store().recordDelivery({
        deliveryId: "d-text",
        event: "issues",
        payload: JSON.parse(body),
        payloadText: body,
      });
      const raw = rowsOf(
        await dbOf(store()).execute(
          sql`SELECT payload->>'id' AS id, payload->>'title' AS title FROM inbox WHERE delivery_id = 'd-text'`,
        ),
      );
      expect(raw).toEqual([{ id: "9007199254740993", title: "café ✓" }]);
    });

    it("stores the parsed payload instead of text that escapes a lone surrogate", async () => {
      const body = '{"title": "bad \\ud800 title"}';
      const r = await store().recordDelivery({
        deliveryId: "d-text-surrogate",
        event: "issues",
        payload: JSON.parse(body),
        payloadText: body,
      });
      expect(r).toEqual({ inserted: true });
      const d = await store().getDelivery("d-text-surrogate");
      expect(d?.payload).toEqual({ title: "bad \ufffd title" });
    });

    it("marks a delivery processed in the transition's transaction, once", async () => {
      const state = await createdGoal(store());
      await store().recordDelivery({ deliveryId: "d2", event: "issue_comment", payload: {} });
      const r = await store().apply(state.goal.id, pauseFixture(), { deliveryId: "d2" });
      expect(r.ok).toBe(true);
      const d = await store().getDelivery("d2");
      expect(d?.processedAt).toBeInstanceOf(Date);
      expect(d?.outcome).toBe("applied");
      const [ev] = await dbOf(store())
        .select()
        .from(tables.events)
        .where(eq(tables.events.type, "goal.paused"));
      expect(ev?.deliveryId).toBe("d2");
      // Processing it again is refused and changes nothing.
      const again = await store().apply(state.goal.id, pauseFixture(), { deliveryId: "d2" });
      expect(again).toMatchObject({ ok: false, refusal: { code: "duplicate" } });
      expect((await store().loadGoal(state.goal.id))?.goal.version).toBe(2);
      // An unrecorded delivery is refused with what to do.
      const unknown = await store().apply(state.goal.id, pauseFixture(), { deliveryId: "nope" });
      expect(unknown).toMatchObject({ ok: false, refusal: { code: "not_found" } });
    });

    it("a refused command marks its delivery processed unless told to leave it pending", async () => {
      const state = await createdGoal(store());
      const refuse = () => ({
        ok: false as const,
        refusal: { code: "not_authorized" as const, message: "not a writer" },
      });
      await store().recordDelivery({ deliveryId: "d3", event: "issue_comment", payload: {} });
      await store().recordDelivery({ deliveryId: "d4", event: "issue_comment", payload: {} });
      await store().apply(state.goal.id, refuse, { deliveryId: "d3" });
      await store().apply(state.goal.id, refuse, { deliveryId: "d4", onRefusal: "leave_pending" });
      expect((await store().getDelivery("d3"))?.outcome).toBe("refused:not_authorized");
      expect((await store().getDelivery("d4"))?.processedAt).toBeNull();
      expect(await rowCount(store(), "events", state.goal.id)).toBe(1);
    });

    it("pending deliveries are fair across installations", async () => {
      for (let i = 0; i < 5; i++) {
        await store().recordDelivery({
          deliveryId: `busy-${i}`,
          event: "check_run",
          installationId: 1,
          payload: {},
        });
      }
      await store().recordDelivery({
        deliveryId: "quiet-0",
        event: "issues",
        installationId: 2,
        payload: {},
      });
      const pending = await store().pendingDeliveries(3);
      expect(pending.map((d) => d.deliveryId)).toEqual(["busy-0", "quiet-0", "busy-1"]);
      const capped = await store().pendingDeliveries(10, { perInstallation: 2 });
      expect(capped.map((d) => d.deliveryId).sort()).toEqual(["busy-0", "busy-1", "quiet-0"]);
      await store().markDeliveryFailed("busy-0", "boom", new Date(Date.now() + 3_600_000));
      expect(await store().markDeliveryProcessed("busy-1")).toBe(true);
      expect(await store().markDeliveryProcessed("busy-1")).toBe(false);
      const rest = await store().pendingDeliveries(10);
      expect(rest.map((d) => d.deliveryId)).toEqual(["busy-2", "quiet-0", "busy-3", "busy-4"]);
      expect((await store().getDelivery("busy-0"))?.attempts).toBe(1);
    });
  });
}
