/**
 * Claims under real concurrency: many sessions on one PostgreSQL. PGlite is a single session
 * (queries are serialised, advisory locks are re-entrant), so it cannot show any of this.
 */

import { todosOverlap } from "@loopx/core";
import type { Store } from "@loopx/store";
import { dbOf, tables } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RacingSessions, racingSessions, truncateAll } from "../support/databases.ts";
import { kernelClaim, kernelClaimFn, kernelCreate, kernelSlotClaimFn } from "./kernel-fixtures.ts";

const serverUrl = inject("pgUrl");
const skipReason = serverUrl ? "" : inject("pgSkipReason");

describe.skipIf(!serverUrl)(
  `claims under concurrency (real PostgreSQL only; PGlite is one session and cannot race)${skipReason ? ` — skipped: ${skipReason}` : ""}`,
  () => {
    let admin: Store;
    let sessions: Store[] = [];
    let race: RacingSessions | undefined;

    beforeAll(async () => {
      // One single-connection store per claimer: 32 separate server sessions.
      race = await racingSessions(serverUrl ?? "", 32);
      ({ admin, sessions } = race);
    });
    afterAll(() => race?.close());

    it("16 sessions racing for one todo: exactly one wins, the rest are refused", async () => {
      await truncateAll(admin);
      const made = await admin.createGoal(kernelCreate({ todos: 1 }));
      if (!made.ok) throw new Error(made.refusal.message);
      const id = made.state.goal.id;
      const racers = sessions.slice(0, 16);
      const results = await Promise.all(
        racers.map((s, i) =>
          s.apply(id, kernelClaim({ agent: `racer-${i}`, todo: "T1" }).transition),
        ),
      );
      const winners = results.filter((r) => r.ok);
      expect(winners).toHaveLength(1);
      for (const r of results) {
        if (!r.ok) expect(["lease_held", "invalid_state"]).toContain(r.refusal.code);
      }
      const state = await admin.loadGoal(id);
      expect(state?.ticks).toHaveLength(1);
      expect(state?.goal.version).toBe(2);
      const ticks = await dbOf(admin).select().from(tables.ticks);
      expect(ticks).toHaveLength(1);
    });

    it("32 claimers draining 200 due goals: each goal claimed exactly once, no waiting", async () => {
      await truncateAll(admin);
      const goals = 200;
      for (let i = 0; i < goals; i++) {
        const made = await admin.createGoal(kernelCreate({ todos: 1 }));
        if (!made.ok) throw new Error(made.refusal.message);
      }
      const claimedBy = new Map<string, string[]>();
      await Promise.all(
        sessions.map(async (s, i) => {
          const agent = `claimer-${i}`;
          for (;;) {
            const r = await s.claimNextDue(agent, kernelClaimFn);
            if (!r.ok) break;
            claimedBy.set(r.goalId, [...(claimedBy.get(r.goalId) ?? []), agent]);
          }
        }),
      );
      const doubles = [...claimedBy.values()].filter((who) => who.length > 1);
      expect(doubles).toEqual([]);
      expect(claimedBy.size).toBe(goals);
      const ticks = await dbOf(admin).select({ goalId: tables.ticks.goalId }).from(tables.ticks);
      expect(ticks).toHaveLength(goals);
      expect(new Set(ticks.map((t) => t.goalId)).size).toBe(goals);
    });

    it("32 dispatchers on 8 goals with 4 free slots each: every slot taken once, never twice", async () => {
      await truncateAll(admin);
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        const made = await admin.createGoal(kernelCreate({ todos: 4, parallel: 4 }));
        if (!made.ok) throw new Error(made.refusal.message);
        ids.push(made.state.goal.id);
      }
      const slots = ["1", "2", "3", "4"];
      const taken = await Promise.all(
        sessions.map(async (s, i) => {
          const id = ids[i % ids.length] ?? "";
          return { id, slot: await s.reserveDispatchSlot(id, slots) };
        }),
      );
      for (const id of ids) {
        const mine = taken.filter((t) => t.id === id).map((t) => t.slot);
        expect(mine.filter((x) => x !== null).sort()).toEqual(slots);
        expect(mine.filter((x) => x === null)).toHaveLength(0);
      }
      // A ninth dispatcher per goal finds every slot's dispatch pending.
      for (const id of ids) expect(await admin.reserveDispatchSlot(id, slots)).toBeNull();
    });

    it("32 claimers on 60 goals with parallel 3: no double claim, overlapping todos never together", async () => {
      await truncateAll(admin);
      const goals = 60;
      // T1 and T2 are disjoint; T3 lies under T1's glob; T4 declares nothing, so may touch
      // anything. By the rules, exactly T1 and T2 of each goal run at once, in slots 1 and 2.
      const paths = [["src/api/**"], ["docs/**"], ["src/api/routes.ts"], []];
      for (let i = 0; i < goals; i++) {
        const made = await admin.createGoal(kernelCreate({ todos: 4, parallel: 3, paths }));
        if (!made.ok) throw new Error(made.refusal.message);
      }
      let claims = 0;
      await Promise.all(
        sessions.map(async (s, i) => {
          for (;;) {
            const r = await s.claimNextDue(`claimer-${i}`, kernelSlotClaimFn, { maxGoals: goals });
            if (!r.ok) break;
            claims += 1;
          }
        }),
      );
      const ticks = await dbOf(admin)
        .select({ goalId: tables.ticks.goalId, todo: tables.ticks.todo, slot: tables.ticks.slot })
        .from(tables.ticks);
      expect(ticks).toHaveLength(claims);
      const byGoal = new Map<string, { todo: string; slot: string }[]>();
      for (const t of ticks) byGoal.set(t.goalId, [...(byGoal.get(t.goalId) ?? []), t]);
      expect(byGoal.size).toBe(goals);
      for (const [id, held] of byGoal) {
        expect(held.map((t) => t.todo).sort()).toEqual(["T1", "T2"]);
        expect(held.map((t) => t.slot).sort()).toEqual(["1", "2"]);
        const state = await admin.loadGoal(id);
        const live = state?.todos.filter((t) => t.claim !== null) ?? [];
        for (const a of live) {
          for (const b of live) if (a !== b) expect(todosOverlap(a, b)).toBe(false);
        }
      }
    });
  },
);
