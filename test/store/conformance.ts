/**
 * The store's contract, run against every driver: describeStoreConformance(name, makeStore).
 * Behaviour that needs several sessions (locks, SKIP LOCKED) lives in concurrency.test.ts.
 */
import { GoalState } from "@loopx/core";
import type { Store } from "@loopx/store";
import { dbOf, eq, sql, tables } from "@loopx/store/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { truncateAll } from "../support/databases.ts";
import { childRowCases } from "./child-rows.ts";
import { claimFixture, createFixture, finishFixture, pauseFixture } from "./fixtures.ts";
import { describeInboxBatchConformance } from "./inbox-batch-conformance.ts";
import { describeIntakeConformance } from "./intake-conformance.ts";
import { kernelClaim, kernelCreate, kernelExpire, kernelResult } from "./kernel-fixtures.ts";
import { describeRetentionConformance } from "./retention-conformance.ts";

async function created(store: Store, over: Parameters<typeof createFixture>[0] = {}) {
  const r = await store.createGoal(createFixture(over));
  if (!r.ok) throw new Error(`fixture goal refused: ${r.refusal.message}`);
  return r.state;
}

async function count(store: Store, table: "events" | "outbox", goalId: string): Promise<number> {
  const t = table === "events" ? tables.events : tables.outbox;
  const rows = await dbOf(store)
    .select({ n: sql<number>`count(*)::int` })
    .from(t)
    .where(eq(t.goalId, goalId));
  return rows[0]?.n ?? 0;
}

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
        const state = await created(store);
        const loaded = await store.loadGoal(state.goal.id);
        expect(loaded).toEqual(GoalState.parse(state));
        const byIssue = await store.findGoalByIssue(state.goal.repo.id, state.goal.issue.number);
        expect(byIssue).toEqual(loaded);
        expect(await store.loadGoal("00000000-0000-4000-8000-000000000000")).toBeNull();
        expect(await count(store, "events", state.goal.id)).toBe(1);
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
        const state = await created(store);
        const rows = await dbOf(store).execute(
          sql`SELECT jsonb_typeof(objective) AS t FROM goals WHERE id = ${state.goal.id}`,
        );
        expect(JSON.stringify(rows)).toContain('"object"');
      });

      it("refuses a second goal for the same issue", async () => {
        const state = await created(store, { issue: 77 });
        const again = await store.createGoal(createFixture({ issue: 77 }));
        expect(again).toMatchObject({ ok: false, refusal: { code: "duplicate" } });
        const rows = await dbOf(store).select().from(tables.goals);
        expect(rows.map((r) => r.id)).toEqual([state.goal.id]);
      });

      it("apply bumps the version and appends events and outbox in one transaction", async () => {
        const state = await created(store);
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
        const state = await created(store);
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
        const state = await created(store);
        const r = await store.apply(state.goal.id, pauseFixture(), { expectedVersion: 0 });
        expect(r).toMatchObject({ ok: false, refusal: { code: "stale_version" } });
        expect(await store.loadGoal(state.goal.id)).toEqual(state);
        expect(await count(store, "events", state.goal.id)).toBe(1);
        const ok = await store.apply(state.goal.id, pauseFixture(), { expectedVersion: 1 });
        expect(ok.ok).toBe(true);
      });

      it("a refused transition writes nothing", async () => {
        const state = await created(store);
        const r = await store.apply(state.goal.id, () => ({
          ok: false,
          refusal: { code: "invalid_state", message: "no" },
        }));
        expect(r).toEqual({ ok: false, refusal: { code: "invalid_state", message: "no" } });
        expect(await store.loadGoal(state.goal.id)).toEqual(state);
        expect(await count(store, "events", state.goal.id)).toBe(1);
      });

      it("a transition that throws rolls everything back, delivery included", async () => {
        const state = await created(store);
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
        expect(await count(store, "events", state.goal.id)).toBe(1);
        expect(await count(store, "outbox", state.goal.id)).toBe(2);
        expect((await store.getDelivery("d-crash"))?.processedAt).toBeNull();
        expect((await store.pendingDeliveries(10)).map((d) => d.deliveryId)).toEqual(["d-crash"]);
      });

      it("records a delivery once", async () => {
        const first = await store.recordDelivery({
          deliveryId: "d1",
          event: "issues",
          action: "labeled",
          installationId: 7,
          payload: { x: 1 },
        });
        const second = await store.recordDelivery({
          deliveryId: "d1",
          event: "issues",
          action: "labeled",
          installationId: 7,
          payload: { x: 2 },
        });
        expect(first).toEqual({ inserted: true });
        expect(second).toEqual({ inserted: false });
        const d = await store.getDelivery("d1");
        expect(d?.payload).toEqual({ x: 1 });
      });

      it("records a delivery whose payload carries a lone surrogate, replaced by U+FFFD", async () => {
        const r = await store.recordDelivery({
          deliveryId: "d-surrogate",
          event: "issues",
          payload: { issue: { title: "bad \ud800 title" } },
        });
        expect(r).toEqual({ inserted: true });
        const d = await store.getDelivery("d-surrogate");
        expect(d?.payload).toEqual({ issue: { title: "bad \ufffd title" } });
      });

      it("marks a delivery processed in the transition's transaction, once", async () => {
        const state = await created(store);
        await store.recordDelivery({ deliveryId: "d2", event: "issue_comment", payload: {} });
        const r = await store.apply(state.goal.id, pauseFixture(), { deliveryId: "d2" });
        expect(r.ok).toBe(true);
        const d = await store.getDelivery("d2");
        expect(d?.processedAt).toBeInstanceOf(Date);
        expect(d?.outcome).toBe("applied");
        const [ev] = await dbOf(store)
          .select()
          .from(tables.events)
          .where(eq(tables.events.type, "goal.paused"));
        expect(ev?.deliveryId).toBe("d2");
        // Processing it again is refused and changes nothing.
        const again = await store.apply(state.goal.id, pauseFixture(), { deliveryId: "d2" });
        expect(again).toMatchObject({ ok: false, refusal: { code: "duplicate" } });
        expect((await store.loadGoal(state.goal.id))?.goal.version).toBe(2);
        // An unrecorded delivery is refused with what to do.
        const unknown = await store.apply(state.goal.id, pauseFixture(), { deliveryId: "nope" });
        expect(unknown).toMatchObject({ ok: false, refusal: { code: "not_found" } });
      });

      it("a refused command marks its delivery processed unless told to leave it pending", async () => {
        const state = await created(store);
        const refuse = () => ({
          ok: false as const,
          refusal: { code: "not_authorized" as const, message: "not a writer" },
        });
        await store.recordDelivery({ deliveryId: "d3", event: "issue_comment", payload: {} });
        await store.recordDelivery({ deliveryId: "d4", event: "issue_comment", payload: {} });
        await store.apply(state.goal.id, refuse, { deliveryId: "d3" });
        await store.apply(state.goal.id, refuse, { deliveryId: "d4", onRefusal: "leave_pending" });
        expect((await store.getDelivery("d3"))?.outcome).toBe("refused:not_authorized");
        expect((await store.getDelivery("d4"))?.processedAt).toBeNull();
        expect(await count(store, "events", state.goal.id)).toBe(1);
      });

      it("pending deliveries are fair across installations", async () => {
        for (let i = 0; i < 5; i++) {
          await store.recordDelivery({
            deliveryId: `busy-${i}`,
            event: "check_run",
            installationId: 1,
            payload: {},
          });
        }
        await store.recordDelivery({
          deliveryId: "quiet-0",
          event: "issues",
          installationId: 2,
          payload: {},
        });
        const pending = await store.pendingDeliveries(3);
        expect(pending.map((d) => d.deliveryId)).toEqual(["busy-0", "quiet-0", "busy-1"]);
        const capped = await store.pendingDeliveries(10, { perInstallation: 2 });
        expect(capped.map((d) => d.deliveryId).sort()).toEqual(["busy-0", "busy-1", "quiet-0"]);
        await store.markDeliveryFailed("busy-0", "boom", new Date(Date.now() + 3_600_000));
        expect(await store.markDeliveryProcessed("busy-1")).toBe(true);
        expect(await store.markDeliveryProcessed("busy-1")).toBe(false);
        const rest = await store.pendingDeliveries(10);
        expect(rest.map((d) => d.deliveryId)).toEqual(["busy-2", "quiet-0", "busy-3", "busy-4"]);
        expect((await store.getDelivery("busy-0"))?.attempts).toBe(1);
      });

      it("coalesces status effects to the newest version; other keys are written once", async () => {
        const state = await created(store);
        const claimed = await store.apply(
          state.goal.id,
          claimFixture({ agent: "a", leaseTtlMs: 60_000 }),
        );
        if (!claimed.ok) throw new Error(claimed.refusal.message);
        const tickId = claimed.state.ticks[0]!.id;
        const [status] = (await store.outboxForGoal(state.goal.id)).filter(
          (o) => o.key === "status",
        );
        // The worker finished version 2 before version 3 was enqueued…
        expect(await store.markOutboxDone(status!.id, { goalVersion: 2 })).toBe(true);
        await store.apply(
          state.goal.id,
          finishFixture(tickId, { usd: 0.1, tokens: 1, runnerMinutes: 1 }),
        );
        await store.apply(state.goal.id, (s, now) => ({
          ok: true,
          state: s,
          events: [],
          effects: [
            { kind: "status", key: "status" },
            { kind: "tick_comment", key: `tick:${tickId}`, tickId },
            { kind: "dispatch", key: "dispatch:1", reason: "due", at: now },
          ],
        }));
        const rows = await store.outboxForGoal(state.goal.id);
        expect(rows.map((o) => [o.key, o.goalVersion])).toEqual([
          ["body", 1],
          ["status", 4],
          [`tick:${tickId}`, 3],
          ["dispatch:1", 4],
        ]);
        // …so the status row is due again, for version 4.
        const due = await store.dueOutbox(10);
        expect(due.map((o) => o.key)).toEqual(["body", "status", `tick:${tickId}`, "dispatch:1"]);
        // Leased: a second drainer gets nothing until the lease lapses.
        expect(await store.dueOutbox(10)).toEqual([]);
        // A done for an older version does not swallow the newer render.
        expect(await store.markOutboxDone(status!.id, { goalVersion: 3 })).toBe(false);
        expect(await store.markOutboxDone(status!.id, { goalVersion: 4 })).toBe(true);
      });

      it("retries and dead-letters outbox rows", async () => {
        const state = await created(store);
        const [body, status] = await store.dueOutbox(10, { leaseMs: 0 });
        await store.markOutboxFailed(body!.id, "502 from GitHub", new Date(Date.now() - 1000));
        await store.deadLetter(status!.id, "404: issue deleted");
        const due = await store.dueOutbox(10);
        expect(due.map((o) => [o.key, o.attempts, o.lastError])).toEqual([
          ["body", 1, "502 from GitHub"],
        ]);
        const dead = await store.deadLetters(state.goal.id);
        expect(dead.map((d) => [d.key, d.lastError])).toEqual([["status", "404: issue deleted"]]);
        expect(dead[0]?.deadAt).toBeInstanceOf(Date);
      });

      it("claimNextDue claims a due goal and skips one with a live lease", async () => {
        const a = await created(store);
        const claim = claimFixture({ agent: "w", leaseTtlMs: 60_000 });
        const first = await store.claimNextDue("w", claim);
        expect(first.ok && first.goalId).toBe(a.goal.id);
        const second = await store.claimNextDue("w", claim);
        expect(second).toMatchObject({ ok: false, refusal: { code: "not_found" } });
      });

      it("refuses a second claim for one workflow run attempt", async () => {
        const a = await created(store);
        const b = await created(store);
        const run = { id: 555, attempt: 1 };
        const first = await store.apply(
          a.goal.id,
          claimFixture({ agent: "w", leaseTtlMs: 60_000, run }),
        );
        expect(first.ok).toBe(true);
        const second = await store.apply(
          b.goal.id,
          claimFixture({ agent: "w", leaseTtlMs: 60_000, run }),
        );
        expect(second).toMatchObject({ ok: false, refusal: { code: "duplicate" } });
        expect((await store.loadGoal(b.goal.id))?.ticks).toEqual([]);
      });

      it("computes the shared allowance from finished ticks against installation ceilings", async () => {
        const a = await created(store, { repoId: 1 });
        const b = await created(store, { repoId: 2 });
        expect(await store.sharedAllowance(a.goal.id)).toEqual({});
        await store.upsertInstallation({
          id: 7,
          accountLogin: "octo",
          spendCeiling: { usd: 10, ticks: 100 },
          repoSpendCeiling: { usd: 3 },
        });
        for (const [g, usd] of [
          [a, 1.25],
          [b, 2],
        ] as const) {
          const c = await store.apply(g.goal.id, claimFixture({ agent: "w", leaseTtlMs: 60_000 }));
          if (!c.ok) throw new Error(c.refusal.message);
          await store.apply(
            g.goal.id,
            finishFixture(c.state.ticks[0]!.id, { usd, tokens: 10, runnerMinutes: 1 }),
          );
        }
        expect(await store.sharedAllowance(a.goal.id)).toEqual({
          repository: { usd: 1.75 },
          installation: { usd: 6.75, ticks: 98 },
        });
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
        const a = await created(store);
        expect(await store.getProjection(a.goal.id, "status")).toBeNull();
        await store.setProjection(a.goal.id, "status", { githubId: 4242 });
        await store.setProjection(a.goal.id, "body", { readBody: "mine", wroteBody: "mine+block" });
        await store.setProjection(a.goal.id, "body", { wroteBody: "mine+block v2" });
        expect(await store.getProjection(a.goal.id, "status")).toEqual({
          githubId: 4242,
          readBody: null,
          wroteBody: null,
        });
        // Undefined fields keep their value: the read body survives a later write's record.
        expect(await store.getProjection(a.goal.id, "body")).toEqual({
          githubId: null,
          readBody: "mine",
          wroteBody: "mine+block v2",
        });
      });

      it("lists goals whose leases expired on the database clock", async () => {
        const a = await created(store);
        await store.apply(a.goal.id, claimFixture({ agent: "w", leaseTtlMs: -1000 }));
        const b = await created(store);
        await store.apply(b.goal.id, claimFixture({ agent: "w", leaseTtlMs: 60_000 }));
        expect(await store.goalsWithExpiredLeases()).toEqual([a.goal.id]);
      });

      childRowCases(() => store);
    },
  );
}
