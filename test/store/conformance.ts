/**
 * The store's contract, run against every driver: describeStoreConformance(name, makeStore).
 * Behaviour that needs several sessions (locks, SKIP LOCKED) lives in concurrency.test.ts.
 */
import { randomUUID } from "node:crypto";
import { GoalState, takeClaim } from "@loopx/core";
import type { Store } from "@loopx/store";
import { dbOf, eq, sql, tables } from "@loopx/store/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { truncateAll } from "../support/databases.ts";
import { childRowCases } from "./child-rows.ts";
import { describeClaimConformance } from "./claim-conformance.ts";
import { describeDeliveryConformance } from "./delivery-conformance.ts";
import { describeDispatchConformance } from "./dispatch-conformance.ts";
import { claimFixture, createFixture, finishFixture, pauseFixture } from "./fixtures.ts";
import { createdGoal, rowCount } from "./goal-rows.ts";
import { describeInboxBatchConformance } from "./inbox-batch-conformance.ts";
import { describeInboxRecordConformance } from "./inbox-record-conformance.ts";
import { describeIntakeConformance } from "./intake-conformance.ts";
import { kernelClaim, kernelCreate, kernelExpire, kernelResult } from "./kernel-fixtures.ts";
import { describeOutboxConformance } from "./outbox-conformance.ts";
import { describeRetentionConformance } from "./retention-conformance.ts";

export function describeStoreConformance(
  name: string,
  makeStore: () => Promise<{ store: Store; cleanup(): Promise<void> }>,
  opts: { skip?: string } = {},
): void {
  describe.skipIf(Boolean(opts.skip))(
    `store conformance: ${name}${opts.skip ? ` (skipped: ${opts.skip})` : ""}`,
    () => {
      let store: Store;
      let cleanup: () => Promise<void> = async () => {};

      beforeAll(async () => {
        ({ store, cleanup } = await makeStore());
        await store.migrate();
      });
      afterAll(async () => {
        await store?.close();
        await cleanup();
      });
      beforeEach(async () => {
        await truncateAll(store);
      });
      describeIntakeConformance(name, () => store);
      describeRetentionConformance(name, () => store);
      describeInboxBatchConformance(name, () => store);
      describeInboxRecordConformance(name, () => store);
      describeDeliveryConformance(name, () => store);
      describeClaimConformance(name, () => store);
      describeOutboxConformance(name, () => store);
      describeDispatchConformance(name, () => store);

      it("migrates idempotently", async () => {
        await store.migrate();
        const rows = await dbOf(store).select().from(tables.goals);
        expect(rows).toEqual([]);
      });

      it("databaseNow is the server's clock", async () => {
        const rows = await dbOf(store).execute(sql`SELECT 1`);
        expect(rows).toBeTruthy();
        const before = Date.now();
        const now = await store.databaseNow();
        expect(now).toBeInstanceOf(Date);
        // Same machine: the server's clock is within a few seconds of ours.
        expect(Math.abs(now.getTime() - before)).toBeLessThan(5_000);
        // Two calls outside a transaction are two instants (now() is per transaction).
        await new Promise((r) => setTimeout(r, 5));
        expect((await store.databaseNow()).getTime()).toBeGreaterThan(now.getTime());
      });

      it("create → load round-trips the kernel state exactly", async () => {
        const state = await createdGoal(store);
        const loaded = await store.loadGoal(state.goal.id);
        expect(loaded).toEqual(GoalState.parse(state));
        const byIssue = await store.findGoalByIssue(state.goal.repo.id, state.goal.issue.number);
        expect(byIssue).toEqual(loaded);
        expect(await store.loadGoal("00000000-0000-4000-8000-000000000000")).toBeNull();
        expect(await rowCount(store, "events", state.goal.id)).toBe(1);
        expect((await store.outboxForGoal(state.goal.id)).map((o) => o.key)).toEqual([
          "body",
          "status",
        ]);
      });

      it("stores text with a lone UTF-16 surrogate (as GitHub's JSON may carry) as U+FFFD", async () => {
        // JSON.parse accepts "\ud800" alone; PostgreSQL's json refuses it. The store must not
        // turn such a title into a delivery that fails forever.
        const r = await store.createGoal((now) => {
          const made = createFixture()(now);
          if (!made.ok) return made;
          made.state.goal.objective.title = "Fix \ud800 the parser";
          const first = made.state.todos[0];
          if (first) first.title = "Lone \udc00 low";
          return made;
        });
        if (!r.ok) throw new Error(r.refusal.message);
        const loaded = await store.loadGoal(r.state.goal.id);
        expect(loaded?.goal.objective.title).toBe("Fix \ufffd the parser");
        expect(loaded?.todos[0]?.title).toBe("Lone \ufffd low");
      });

      it("stores jsonb as objects, not JSON strings", async () => {
        const state = await createdGoal(store);
        const rows = await dbOf(store).execute(
          sql`SELECT jsonb_typeof(objective) AS t FROM goals WHERE id = ${state.goal.id}`,
        );
        expect(JSON.stringify(rows)).toContain('"object"');
      });

      it("refuses a second goal for the same issue", async () => {
        const state = await createdGoal(store, { issue: 77 });
        const again = await store.createGoal(createFixture({ issue: 77 }));
        expect(again).toMatchObject({ ok: false, refusal: { code: "duplicate" } });
        const rows = await dbOf(store).select().from(tables.goals);
        expect(rows.map((r) => r.id)).toEqual([state.goal.id]);
      });

      it("apply bumps the version and appends events and outbox in one transaction", async () => {
        const state = await createdGoal(store);
        const r = await store.apply(
          state.goal.id,
          claimFixture({ agent: "a1", leaseTtlMs: 60_000 }),
        );
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        expect(r.state.goal.version).toBe(state.goal.version + 1);
        const loaded = await store.loadGoal(state.goal.id);
        expect(loaded).toEqual(r.state);
        expect(loaded?.todos[0]?.claim?.agent).toBe("a1");
        expect(loaded?.ticks).toHaveLength(1);
        const events = await dbOf(store)
          .select()
          .from(tables.events)
          .where(eq(tables.events.goalId, state.goal.id));
        expect(events.map((e) => [e.type, e.versionBefore, e.versionAfter])).toEqual([
          ["goal.created", null, 1],
          ["todo.claimed", 1, 2],
        ]);
        // status coalesced onto the row created with the goal, now at version 2
        const outbox = await store.outboxForGoal(state.goal.id);
        expect(outbox.map((o) => [o.key, o.goalVersion])).toEqual([
          ["body", 1],
          ["status", 2],
        ]);
      });

      it("finishing a tick writes evidence, a handoff and the tick's cost", async () => {
        const state = await createdGoal(store);
        const claimed = await store.apply(
          state.goal.id,
          claimFixture({ agent: "a1", leaseTtlMs: 60_000 }),
        );
        if (!claimed.ok) throw new Error(claimed.refusal.message);
        const tickId = claimed.state.ticks[0]!.id;
        const cost = { usd: 0.5, tokens: 1000, runnerMinutes: 3 };
        const done = await store.apply(state.goal.id, finishFixture(tickId, cost), {
          source: { tickId },
        });
        expect(done.ok).toBe(true);
        const loaded = await store.loadGoal(state.goal.id);
        expect(loaded).toEqual(done.ok ? done.state : null);
        expect(loaded?.evidence).toHaveLength(1);
        expect(loaded?.handoffs).toHaveLength(1);
        expect(loaded?.ticks[0]?.cost).toEqual(cost);
        const [ev] = await dbOf(store)
          .select()
          .from(tables.events)
          .where(eq(tables.events.type, "tick.finished"));
        expect(ev?.tickId).toBe(tickId);
      });

      it("refuses a stale expectedVersion and changes nothing", async () => {
        const state = await createdGoal(store);
        const r = await store.apply(state.goal.id, pauseFixture(), { expectedVersion: 0 });
        expect(r).toMatchObject({ ok: false, refusal: { code: "stale_version" } });
        expect(await store.loadGoal(state.goal.id)).toEqual(state);
        expect(await rowCount(store, "events", state.goal.id)).toBe(1);
        const ok = await store.apply(state.goal.id, pauseFixture(), { expectedVersion: 1 });
        expect(ok.ok).toBe(true);
      });

      it("a refused transition writes nothing", async () => {
        const state = await createdGoal(store);
        const r = await store.apply(state.goal.id, () => ({
          ok: false,
          refusal: { code: "invalid_state", message: "no" },
        }));
        expect(r).toEqual({ ok: false, refusal: { code: "invalid_state", message: "no" } });
        expect(await store.loadGoal(state.goal.id)).toEqual(state);
        expect(await rowCount(store, "events", state.goal.id)).toBe(1);
      });

      it("a transition that throws rolls everything back, delivery included", async () => {
        const state = await createdGoal(store);
        await store.recordDelivery({
          deliveryId: "d-crash",
          event: "issue_comment",
          payload: { a: 1 },
        });
        const boom = () => {
          throw new Error("crash mid-transition");
        };
        await expect(store.apply(state.goal.id, boom, { deliveryId: "d-crash" })).rejects.toThrow(
          "crash mid-transition",
        );
        expect(await store.loadGoal(state.goal.id)).toEqual(state);
        expect(await rowCount(store, "events", state.goal.id)).toBe(1);
        expect(await rowCount(store, "outbox", state.goal.id)).toBe(2);
        expect((await store.getDelivery("d-crash"))?.processedAt).toBeNull();
        expect((await store.pendingDeliveries(10)).map((d) => d.deliveryId)).toEqual(["d-crash"]);
      });

      it("round-trips the real kernel: create, claim, result, all equal to the kernel's state", async () => {
        const made = await store.createGoal(kernelCreate({ todos: 3 }));
        if (!made.ok) throw new Error(made.refusal.message);
        const id = made.state.goal.id;
        expect(made.state.goal.version).toBe(1);
        expect(await store.loadGoal(id)).toEqual(made.state);
        const claim = kernelClaim({ agent: "runner-1", run: { id: 321, attempt: 1 } });
        const claimed = await store.apply(id, claim.transition, {
          source: { tickId: claim.tickId },
        });
        if (!claimed.ok) throw new Error(claimed.refusal.message);
        expect(await store.loadGoal(id)).toEqual(claimed.state);
        const todo = claimed.state.ticks[0]!.todo;
        // The lease is judged on the database clock the store handed the kernel.
        const now = await store.databaseNow();
        expect(
          claimed.state.todos.find((t) => t.key === todo)?.claim?.leaseExpiresAt.getTime(),
        ).toBeGreaterThan(now.getTime());
        const again = await store.apply(id, kernelClaim({ agent: "runner-2", todo }).transition);
        expect(again.ok).toBe(false);
        const done = await store.apply(id, kernelResult(claim.tickId, claim.leaseToken, todo));
        if (!done.ok) throw new Error(done.refusal.message);
        const loaded = await store.loadGoal(id);
        expect(loaded).toEqual(done.state);
        expect(loaded?.ticks[0]?.finishedAt).toBeInstanceOf(Date);
        expect(loaded?.evidence.length).toBeGreaterThan(0);
        expect(loaded?.handoffs).toHaveLength(1);
        // Nothing to expire: a refusal, and nothing written.
        const expired = await store.apply(id, kernelExpire);
        expect(expired).toMatchObject({ ok: false, refusal: { code: "not_found" } });
        expect((await store.loadGoal(id))?.goal.version).toBe(done.state.goal.version);
      });

      it("round-trips parallel, declared paths and tick slots", async () => {
        const made = await store.createGoal(
          kernelCreate({ todos: 2, parallel: 2, paths: [["src/api/**"], ["docs/*.md"]] }),
        );
        if (!made.ok) throw new Error(made.refusal.message);
        const id = made.state.goal.id;
        const first = await store.apply(id, kernelClaim({ agent: "r1", slot: "1" }).transition);
        if (!first.ok) throw new Error(first.refusal.message);
        const second = await store.apply(id, kernelClaim({ agent: "r2", slot: "2" }).transition);
        if (!second.ok) throw new Error(second.refusal.message);
        const loaded = await store.loadGoal(id);
        expect(loaded).toEqual(second.state);
        expect(loaded?.goal.parallel).toBe(2);
        expect(loaded?.todos.map((t) => t.paths)).toEqual([["src/api/**"], ["docs/*.md"]]);
        expect(loaded?.ticks.map((t) => [t.todo, t.slot])).toEqual([
          ["T1", "1"],
          ["T2", "2"],
        ]);
      });

      it("round-trips a todo someone else holds: a claim command, then an assignment", async () => {
        const made = await store.createGoal(kernelCreate({ todos: 2 }));
        if (!made.ok) throw new Error(made.refusal.message);
        const id = made.state.goal.id;
        const writer = { kind: "human" as const, login: "alice", trusted: true };
        const until = new Date("2030-01-01T00:00:00.000Z");
        const held = await store.apply(id, (s, now) =>
          takeClaim(s, { todo: "T2", until }, { now, newId: () => randomUUID(), actor: writer }),
        );
        if (!held.ok) throw new Error(held.refusal.message);
        const loaded = await store.loadGoal(id);
        expect(loaded).toEqual(held.state);
        expect(loaded?.todos[1]?.heldBy).toMatchObject({ holder: "alice", via: "command", until });
        expect(loaded?.todos[0]?.heldBy).toBeNull();
      });

      it("round-trips a held plan: plan: approve, proposed todos and the plan gate", async () => {
        const made = await store.createGoal(kernelCreate({ todos: 0, plan: "approve" }));
        if (!made.ok) throw new Error(made.refusal.message);
        const id = made.state.goal.id;
        const claim = kernelClaim({ agent: "runner-1" });
        const claimed = await store.apply(id, claim.transition);
        if (!claimed.ok) throw new Error(claimed.refusal.message);
        const plan = claimed.state.ticks[0]!.todo;
        const held = await store.apply(
          id,
          kernelResult(claim.tickId, claim.leaseToken, plan, [
            { title: "Build the stage", detail: "", requiredScopes: [], paths: [] },
          ]),
        );
        if (!held.ok) throw new Error(held.refusal.message);
        const loaded = await store.loadGoal(id);
        expect(loaded).toEqual(held.state);
        expect(loaded?.goal.plan).toBe("approve");
        expect(loaded?.todos.map((t) => t.status)).toEqual(["done", "proposed"]);
        expect(loaded?.gates.map((g) => [g.status, g.scopes])).toEqual([["open", ["plan:T2"]]]);
      });

      it("keeps what was last written to each GitHub surface, field by field", async () => {
        const a = await createdGoal(store);
        expect(await store.getProjection(a.goal.id, "status")).toBeNull();
        await store.setProjection(a.goal.id, "status", { githubId: 4242 });
        await store.setProjection(a.goal.id, "body", { readBody: "mine", wroteBody: "mine+block" });
        await store.setProjection(a.goal.id, "body", {
          wroteBody: "mine+block v2",
          wroteIsCurrent: true,
        });
        expect(await store.getProjection(a.goal.id, "status")).toEqual({
          githubId: 4242,
          readBody: null,
          wroteBody: null,
          wroteIsCurrent: false,
        });
        // Undefined fields keep their value: the read body survives a later write's record.
        expect(await store.getProjection(a.goal.id, "body")).toEqual({
          githubId: null,
          readBody: "mine",
          wroteBody: "mine+block v2",
          wroteIsCurrent: true,
        });
        // A person's edit clears only the flag: the record an echo is checked against stays.
        await store.setProjection(a.goal.id, "body", { wroteIsCurrent: false });
        expect(await store.getProjection(a.goal.id, "body")).toMatchObject({
          readBody: "mine",
          wroteBody: "mine+block v2",
          wroteIsCurrent: false,
        });
      });

      it("lists goals whose leases expired on the database clock", async () => {
        const a = await createdGoal(store);
        await store.apply(a.goal.id, claimFixture({ agent: "w", leaseTtlMs: -1000 }));
        const b = await createdGoal(store);
        await store.apply(b.goal.id, claimFixture({ agent: "w", leaseTtlMs: 60_000 }));
        expect(await store.goalsWithExpiredLeases()).toEqual([a.goal.id]);
      });

      childRowCases(() => store);
    },
  );
}
