/**
 * The outbox, run against every driver: status renders coalesce to the newest version,
 * other keys are written once, rows are leased, retried and dead-lettered.
 */
import type { Store } from "@loopx/store";
import { beforeEach, describe, expect, it } from "vitest";
import { truncateAll } from "../support/databases.ts";
import { claimFixture, finishFixture } from "./fixtures.ts";
import { createdGoal } from "./goal-rows.ts";

export function describeOutboxConformance(name: string, store: () => Store): void {
  describe(`outbox: ${name}`, () => {
    beforeEach(async () => {
      await truncateAll(store());
    });

    it("coalesces status effects to the newest version; other keys are written once", async () => {
      const state = await createdGoal(store());
      const claimed = await store().apply(
        state.goal.id,
        claimFixture({ agent: "a", leaseTtlMs: 60_000 }),
      );
      if (!claimed.ok) throw new Error(claimed.refusal.message);
      const tickId = claimed.state.ticks[0]!.id;
      const [status] = (await store().outboxForGoal(state.goal.id)).filter(
        (o) => o.key === "status",
      );
      // The worker finished version 2 before version 3 was enqueued…
      expect(await store().markOutboxDone(status!.id, { goalVersion: 2 })).toBe(true);
      await store().apply(
        state.goal.id,
        finishFixture(tickId, { usd: 0.1, tokens: 1, runnerMinutes: 1 }),
      );
      await store().apply(state.goal.id, (s, now) => ({
        ok: true,
        state: s,
        events: [],
        effects: [
          { kind: "status", key: "status" },
          { kind: "tick_comment", key: `tick:${tickId}`, tickId },
          { kind: "dispatch", key: "dispatch:1", reason: "due", at: now },
        ],
      }));
      const rows = await store().outboxForGoal(state.goal.id);
      expect(rows.map((o) => [o.key, o.goalVersion])).toEqual([
        ["body", 1],
        ["status", 4],
        [`tick:${tickId}`, 3],
        ["dispatch:1", 4],
      ]);
      // …so the status row is due again, for version 4.
      const due = await store().dueOutbox(10);
      expect(due.map((o) => o.key)).toEqual(["body", "status", `tick:${tickId}`, "dispatch:1"]);
      // Leased: a second drainer gets nothing until the lease lapses.
      expect(await store().dueOutbox(10)).toEqual([]);
      // A done for an older version does not swallow the newer render.
      expect(await store().markOutboxDone(status!.id, { goalVersion: 3 })).toBe(false);
      expect(await store().markOutboxDone(status!.id, { goalVersion: 4 })).toBe(true);
    });

    it("a newer render of a row a worker holds waits for that worker, then is due at once", async () => {
      const state = await createdGoal(store());
      const render = () =>
        store().apply(state.goal.id, (s) => ({
          ok: true,
          state: s,
          events: [],
          effects: [{ kind: "status", key: "status" }],
        }));
      const [held] = (await store().dueOutbox(10)).filter((o) => o.key === "status");
      if (!held) throw new Error("no status row due");
      // A transition renders the status again while the worker is still writing it: a second
      // drainer must not get the row, or both would create the comment.
      await render();
      expect((await store().dueOutbox(10)).map((o) => o.key)).toEqual([]);
      // The worker finishes the older render: the newer one is due at once, not at lease end.
      expect(await store().markOutboxDone(held.id, { goalVersion: held.goalVersion })).toBe(false);
      const next = await store().dueOutbox(10);
      expect(next.map((o) => [o.key, o.goalVersion > held.goalVersion])).toEqual([
        ["status", true],
      ]);
      // A row nobody holds is due at once when rendered again.
      expect(await store().markOutboxDone(next[0]!.id, { goalVersion: next[0]!.goalVersion })).toBe(
        true,
      );
      await render();
      expect((await store().dueOutbox(10)).map((o) => o.key)).toEqual(["status"]);
    });

    it("a lane takes only the kinds it asks for, and leaves the rest due", async () => {
      const state = await createdGoal(store());
      await store().apply(state.goal.id, (s, now) => ({
        ok: true,
        state: s,
        events: [],
        effects: [
          { kind: "gate_comment", key: "gate:G1:opened", gate: "G1" },
          { kind: "dispatch", key: "dispatch:t1", reason: "due", at: now },
        ],
      }));
      const lane = await store().dueOutbox(10, { kinds: ["dispatch", "dispatch_job"] });
      expect(lane.map((o) => o.key)).toEqual(["dispatch:t1"]);
      expect(await store().dueOutbox(10, { kinds: ["dispatch"] })).toEqual([]);
      const rest = await store().dueOutbox(10);
      expect(rest.map((o) => o.key)).toEqual(["body", "status", "gate:G1:opened"]);
    });

    it("retries and dead-letters outbox rows", async () => {
      const state = await createdGoal(store());
      const [body, status] = await store().dueOutbox(10, { leaseMs: 0 });
      await store().markOutboxFailed(body!.id, "502 from GitHub", new Date(Date.now() - 1000));
      await store().deadLetter(status!.id, "404: issue deleted");
      const due = await store().dueOutbox(10);
      expect(due.map((o) => [o.key, o.attempts, o.lastError])).toEqual([
        ["body", 1, "502 from GitHub"],
      ]);
      const dead = await store().deadLetters(state.goal.id);
      expect(dead.map((d) => [d.key, d.lastError])).toEqual([["status", "404: issue deleted"]]);
      expect(dead[0]?.deadAt).toBeInstanceOf(Date);
    });
  });
}
