/**
 * The App's dispatch markers, run against every driver: a goal's wake marker and one marker
 * per slot it dispatched into, each with its own run id.
 */
import type { Store } from "@loopx/store";
import { dbOf, sql } from "@loopx/store/testing";
import { describe, expect, it } from "vitest";
import { createdGoal } from "./goal-rows.ts";
import { kernelClaim } from "./kernel-fixtures.ts";

const SLOTS = ["1", "2", "3"];

export function describeDispatchConformance(name: string, store: () => Store): void {
  describe(`dispatch markers: ${name}`, () => {
    it("reserves each slot once while its dispatch is pending, lowest first", async () => {
      const { goal } = await createdGoal(store());
      expect(await store().reserveDispatchSlot(goal.id, SLOTS)).toBe("1");
      expect(await store().reserveDispatchSlot(goal.id, SLOTS)).toBe("2");
      expect(await store().reserveDispatchSlot(goal.id, ["2", "1"])).toBeNull();
      expect(await store().reserveDispatchSlot(goal.id, SLOTS)).toBe("3");
      expect(await store().reserveDispatchSlot(goal.id, SLOTS)).toBeNull();
      // Another goal's slots are its own.
      const other = await createdGoal(store());
      expect(await store().reserveDispatchSlot(other.goal.id, SLOTS)).toBe("1");
    });

    it("keeps a run id per slot: two slots' runs both trace to the goal", async () => {
      const { goal } = await createdGoal(store());
      const one = await store().reserveDispatchSlot(goal.id, SLOTS);
      const two = await store().reserveDispatchSlot(goal.id, SLOTS);
      await store().recordDispatchRun(goal.id, 9001, one ?? "");
      await store().recordDispatchRun(goal.id, 9002, two ?? "");
      await store().markDispatched(goal.id);
      expect(await store().goalOfDispatchedRun(9001)).toBe(goal.id);
      expect(await store().goalOfDispatchedRun(9002)).toBe(goal.id);
      expect(await store().goalOfDispatchedRun(9003)).toBeNull();
    });

    it("a dispatched run that has not asked yet holds its goal's wake, even when it moves", async () => {
      const { goal } = await createdGoal(store());
      const db = dbOf(store());
      const dueBy = (minutes: number) =>
        db.execute(
          sql`UPDATE goals SET next_wake_at = now() - make_interval(mins => ${minutes}) WHERE id = ${goal.id}`,
        );
      const taken = async () =>
        (await store().takeDueDispatches({ repoId: goal.repo.id, limit: 100 })).some(
          (g) => g.goalId === goal.id,
        );
      await dueBy(5);
      expect(await taken()).toBe(true);
      // The dispatch went out and GitHub named its run, which has not asked yet.
      await store().markDispatched(goal.id);
      await store().recordDispatchRun(goal.id, 7001);
      await dueBy(4);
      expect(await taken()).toBe(false);
      // Once a tick claims, the run has had its look: a wake that moves after it is new.
      const claimed = await store().apply(goal.id, kernelClaim({ agent: "a" }).transition);
      if (!claimed.ok) throw new Error(claimed.refusal.message);
      await db.execute(sql`UPDATE ticks SET finished_at = now() WHERE goal_id = ${goal.id}`);
      await dueBy(3);
      expect(await taken()).toBe(true);
      // A look that dispatched nothing (no run to wait for) holds only its own wake instant.
      expect(await taken()).toBe(false);
      await dueBy(2);
      expect(await taken()).toBe(true);
    });

    it("a dispatched run that ended without asking holds nothing back, and still traces", async () => {
      const { goal } = await createdGoal(store());
      const db = dbOf(store());
      await db.execute(
        sql`UPDATE goals SET next_wake_at = now() - interval '1 minute' WHERE id = ${goal.id}`,
      );
      const taken = async () =>
        (await store().takeDueDispatches({ repoId: goal.repo.id, limit: 100 })).some(
          (g) => g.goalId === goal.id,
        );
      await store().markDispatched(goal.id);
      await store().recordDispatchRun(goal.id, 8001);
      expect(await taken()).toBe(false);
      // Another run's end changes nothing.
      await store().endDispatchedRun(8002);
      expect(await taken()).toBe(false);
      await store().endDispatchedRun(8001);
      expect(await store().goalOfDispatchedRun(8001)).toBe(goal.id);
      expect(await taken()).toBe(true);
      // The dispatch that took it holds the wake again.
      expect(await taken()).toBe(false);
    });

    it("frees a slot once a tick claims in it, or its dispatch is released or old", async () => {
      const { goal } = await createdGoal(store());
      expect(await store().reserveDispatchSlot(goal.id, ["1"])).toBe("1");
      expect(await store().reserveDispatchSlot(goal.id, ["1"])).toBeNull();
      // A claim in another slot does not consume slot 1's dispatch.
      const elsewhere = await store().apply(
        goal.id,
        kernelClaim({ agent: "a", slot: "2" }).transition,
      );
      if (!elsewhere.ok) throw new Error(elsewhere.refusal.message);
      expect(await store().reserveDispatchSlot(goal.id, ["1"])).toBeNull();

      const other = await createdGoal(store());
      expect(await store().reserveDispatchSlot(other.goal.id, ["1"])).toBe("1");
      const claimed = await store().apply(
        other.goal.id,
        kernelClaim({ agent: "a", slot: "1" }).transition,
      );
      if (!claimed.ok) throw new Error(claimed.refusal.message);
      expect(await store().reserveDispatchSlot(other.goal.id, ["1"])).toBe("1");

      await store().releaseDispatch(goal.id, "1");
      expect(await store().reserveDispatchSlot(goal.id, ["1"])).toBe("1");
      expect(await store().reserveDispatchSlot(goal.id, ["1"], 0)).toBe("1");
    });

    it("a claim in the same millisecond as its dispatch frees the slot", async () => {
      // The database keeps microseconds; the claim's start is its clock read back to the
      // millisecond. Put the dispatch half a millisecond past the start's millisecond, as a
      // claim close on a dispatch's heels lands.
      const { goal } = await createdGoal(store());
      expect(await store().reserveDispatchSlot(goal.id, ["1"])).toBe("1");
      const claimed = await store().apply(
        goal.id,
        kernelClaim({ agent: "a", slot: "1" }).transition,
      );
      if (!claimed.ok) throw new Error(claimed.refusal.message);
      await dbOf(store()).execute(sql`
        UPDATE tick_dispatches d
           SET dispatched_at = date_trunc('milliseconds', t.started_at) + interval '500 microseconds'
          FROM ticks t
         WHERE t.goal_id = d.goal_id AND t.slot = d.slot AND d.goal_id = ${goal.id}`);
      expect(await store().reserveDispatchSlot(goal.id, ["1"])).toBe("1");
    });

    it("a slot's marker is not the goal's wake marker", async () => {
      const { goal } = await createdGoal(store());
      await store().markDispatched(goal.id);
      await store().recordDispatchRun(goal.id, 7001);
      expect(await store().reserveDispatchSlot(goal.id, ["1"])).toBe("1");
      await store().releaseDispatch(goal.id, "1");
      // Releasing slot 1 left the wake marker and its run alone.
      expect(await store().goalOfDispatchedRun(7001)).toBe(goal.id);
      await store().releaseDispatch(goal.id);
      expect(await store().goalOfDispatchedRun(7001)).toBeNull();
    });
  });
}
