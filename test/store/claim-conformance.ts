/**
 * Claims and the shared allowance, run against every driver (one session: contention lives in
 * concurrency.test.ts): a due goal is claimed once, a run attempt claims once, a run's
 * unfinished tick is found by its run, finished ticks count against installation ceilings.
 */
import type { Store } from "@loopx/store";
import { beforeEach, describe, expect, it } from "vitest";
import { truncateAll } from "../support/databases.ts";
import { claimFixture, finishFixture } from "./fixtures.ts";
import { createdGoal } from "./goal-rows.ts";

export function describeClaimConformance(name: string, store: () => Store): void {
  describe(`claims: ${name}`, () => {
    beforeEach(async () => {
      await truncateAll(store());
    });

    it("claimNextDue claims a due goal and skips one with a live lease", async () => {
      const a = await createdGoal(store());
      const claim = claimFixture({ agent: "w", leaseTtlMs: 60_000 });
      const first = await store().claimNextDue("w", claim);
      expect(first.ok && first.goalId).toBe(a.goal.id);
      const second = await store().claimNextDue("w", claim);
      expect(second).toMatchObject({ ok: false, refusal: { code: "not_found" } });
    });

    it("refuses a second claim for one workflow run attempt", async () => {
      const a = await createdGoal(store());
      const b = await createdGoal(store());
      const run = { id: 555, attempt: 1 };
      const first = await store().apply(
        a.goal.id,
        claimFixture({ agent: "w", leaseTtlMs: 60_000, run }),
      );
      expect(first.ok).toBe(true);
      const second = await store().apply(
        b.goal.id,
        claimFixture({ agent: "w", leaseTtlMs: 60_000, run }),
      );
      expect(second).toMatchObject({ ok: false, refusal: { code: "duplicate" } });
      expect((await store().loadGoal(b.goal.id))?.ticks).toEqual([]);
    });

    it("finds the goal of a run's unfinished tick, in that run's repository only", async () => {
      const a = await createdGoal(store(), { repoId: 1 });
      const run = { id: 777, attempt: 1 };
      const c = await store().apply(
        a.goal.id,
        claimFixture({ agent: "w", leaseTtlMs: 60_000, run }),
      );
      if (!c.ok) throw new Error(c.refusal.message);
      expect(await store().goalOfLiveRunTick(777, 1)).toBe(a.goal.id);
      expect(await store().goalOfLiveRunTick(777, 2)).toBeNull();
      expect(await store().goalOfLiveRunTick(778, 1)).toBeNull();
      const tick = c.state.ticks[0];
      if (!tick) throw new Error("no tick");
      await store().apply(
        a.goal.id,
        finishFixture(tick.id, { usd: 0.1, tokens: 10, runnerMinutes: 1 }),
      );
      expect(await store().goalOfLiveRunTick(777, 1)).toBeNull();
    });

    it("computes the shared allowance from finished ticks against installation ceilings", async () => {
      const a = await createdGoal(store(), { repoId: 1 });
      const b = await createdGoal(store(), { repoId: 2 });
      expect(await store().sharedAllowance(a.goal.id)).toEqual({});
      await store().upsertInstallation({
        id: 7,
        accountLogin: "octo",
        spendCeiling: { usd: 10, ticks: 100 },
        repoSpendCeiling: { usd: 3 },
      });
      for (const [g, usd] of [
        [a, 1.25],
        [b, 2],
      ] as const) {
        const c = await store().apply(g.goal.id, claimFixture({ agent: "w", leaseTtlMs: 60_000 }));
        if (!c.ok) throw new Error(c.refusal.message);
        await store().apply(
          g.goal.id,
          finishFixture(c.state.ticks[0]!.id, { usd, tokens: 10, runnerMinutes: 1 }),
        );
      }
      expect(await store().sharedAllowance(a.goal.id)).toEqual({
        repository: { usd: 1.75 },
        installation: { usd: 6.75, ticks: 98 },
      });
    });
  });
}
