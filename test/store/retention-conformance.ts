/**
 * Retention, run against every driver: a prune removes exactly the rows the rule names —
 * processed deliveries and performed or dead outbox rows older than the retention time,
 * the outbox's only when no live goal needs them — and nothing pending, live or recent.
 */
import type { Store } from "@loopx/store";
import { dbOf, rowsOf, sql } from "@loopx/store/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { truncateAll } from "../support/databases.ts";
import { createFixture } from "./fixtures.ts";

const DAY = 86_400_000;
const RETENTION = 14 * DAY;

export function describeRetentionConformance(name: string, store: () => Store): void {
  describe(`retention: ${name}`, () => {
    beforeEach(async () => {
      await truncateAll(store());
    });

    const db = () => dbOf(store());
    const age = (
      table: "inbox" | "outbox" | "goals",
      column: string,
      where: string,
      days: number,
    ) =>
      db().execute(
        sql.raw(`UPDATE ${table} SET ${column} = now() - interval '${days} days' WHERE ${where}`),
      );
    const ids = async (query: string) => {
      const rows = rowsOf(await db().execute(sql.raw(query)));
      return rows.map((r) => String(Object.values(Object(r))[0])).sort();
    };
    const goal = async () => {
      const r = await store().createGoal(createFixture());
      if (!r.ok) throw new Error(r.refusal.message);
      return r.state.goal.id;
    };
    const deliver = async (id: string) =>
      store().recordDelivery({ deliveryId: id, event: "issues", installationId: 1, payload: {} });

    it("prunes processed deliveries past the retention time and keeps pending and recent ones", async () => {
      for (const id of ["old-done", "recent-done", "old-pending", "old-failing", "edge"]) {
        await deliver(id);
      }
      for (const id of ["old-done", "recent-done", "edge"]) {
        await store().markDeliveryProcessed(id);
      }
      await store().markDeliveryFailed("old-failing", "boom");
      await age("inbox", "processed_at", "delivery_id = 'old-done'", 15);
      await age("inbox", "processed_at", "delivery_id = 'edge'", 13);
      await age("inbox", "received_at", "delivery_id IN ('old-pending', 'old-failing')", 60);

      expect(await store().pruneRetained({ retentionMs: RETENTION, batch: 100 })).toEqual({
        inbox: 1,
        outbox: 0,
      });
      expect(await ids("SELECT delivery_id FROM inbox")).toEqual([
        "edge",
        "old-failing",
        "old-pending",
        "recent-done",
      ]);
      // The pruned delivery id is no longer a guard; the kept ones still are.
      expect(
        (await store().recordDelivery({ deliveryId: "edge", event: "issues", payload: {} }))
          .inserted,
      ).toBe(false);
    });

    it("prunes in batches of at most `batch` rows, oldest first", async () => {
      for (let i = 0; i < 5; i++) {
        await deliver(`d${i}`);
        await store().markDeliveryProcessed(`d${i}`);
        await age("inbox", "processed_at", `delivery_id = 'd${i}'`, 30 - i);
      }
      expect((await store().pruneRetained({ retentionMs: RETENTION, batch: 2 })).inbox).toBe(2);
      expect(await ids("SELECT delivery_id FROM inbox")).toEqual(["d2", "d3", "d4"]);
      expect((await store().pruneRetained({ retentionMs: RETENTION, batch: 2 })).inbox).toBe(2);
      expect((await store().pruneRetained({ retentionMs: RETENTION, batch: 2 })).inbox).toBe(1);
      expect((await store().pruneRetained({ retentionMs: RETENTION, batch: 2 })).inbox).toBe(0);
    });

    it("keeps a live goal's outbox rows and a finished goal's until it has rested for the retention time", async () => {
      const live = await goal();
      const finished = await goal();
      const resting = await goal();
      await age("goals", "status = 'done', updated_at", `id IN ('${finished}')`, 20);
      await age("goals", "status = 'done', updated_at", `id IN ('${resting}')`, 2);
      // Every goal's body row performed long ago, its status row dead-lettered long ago.
      await age("outbox", "done_at", "key = 'body'", 30);
      await age("outbox", "dead_at", "key = 'status'", 30);
      // A goal-less row, performed long ago, another still to write, a third performed lately.
      await store().recordDelivery({ deliveryId: "intake", event: "issues", payload: {} });
      await store().recordIntake({
        deliveryId: "intake",
        outcome: "ignored: test",
        installationId: 3,
        goal: null,
        effects: ["old", "pending", "recent"].map((key) => ({
          kind: "reply" as const,
          key,
          issue: { owner: "acme", repo: "widgets", number: 1 },
          body: "hi",
          lane: "loopx" as const,
          to: { repoId: 10, login: "tom" },
        })),
      });
      await age("outbox", "done_at", "goal_id IS NULL AND key = 'old'", 30);
      await age("outbox", "done_at", "goal_id IS NULL AND key = 'recent'", 1);
      const events = await ids("SELECT count(*) FROM events");

      expect((await store().pruneRetained({ retentionMs: RETENTION, batch: 100 })).outbox).toBe(3);
      expect(await ids("SELECT coalesce(goal_id::text, 'none') || ':' || key FROM outbox")).toEqual(
        [
          `${live}:body`,
          `${live}:status`,
          `${resting}:body`,
          `${resting}:status`,
          "none:pending",
          "none:recent",
        ].sort(),
      );
      // Events are the goals' history: never pruned.
      expect(await ids("SELECT count(*) FROM events")).toEqual(events);
      expect(events).toEqual(["3"]);
    });

    it("a finished goal's row still to be written is kept", async () => {
      const finished = await goal();
      await age("goals", "status = 'done', updated_at", `id = '${finished}'`, 20);
      await age("outbox", "created_at", `goal_id = '${finished}'`, 20);
      expect((await store().pruneRetained({ retentionMs: RETENTION, batch: 100 })).outbox).toBe(0);
      expect(await ids("SELECT key FROM outbox")).toEqual(["body", "status"]);
    });
  });
}
