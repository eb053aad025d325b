/**
 * The operational store: the content budget (GitHub's secondary limits, shared by replicas),
 * installation controls from the deployment's settings, deferral and cursors. The budget's
 * race runs on real PostgreSQL only: PGlite is one session and cannot race.
 */
import { openStore, type Store } from "@loopx/store";
import { dbOf, eq, sql, tables } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  type RacingSessions,
  racingSessions,
  sharedPglite,
  truncateAll,
} from "../support/databases.ts";

const serverUrl = inject("pgUrl");

describe("operations store on PGlite", () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ pglite: await sharedPglite() });
    await store.migrate();
    await truncateAll(store);
  });

  it("grants the budget up to the limit, then says when a slot frees", async () => {
    const ops = store.ops;
    const limits = { perMinute: 3, perHour: 5 };
    const got = [];
    for (let i = 0; i < 4; i++) got.push(await ops.reserveContent(7, { kind: "loopx", limits }));
    expect(got.slice(0, 3).every((r) => r.ok)).toBe(true);
    const refused = got[3];
    if (!refused || refused.ok) throw new Error("the fourth request should be refused");
    const now = await store.databaseNow();
    expect(refused.retryAt.getTime()).toBeGreaterThan(now.getTime() + 50_000);
    // Another installation has its own budget.
    expect((await ops.reserveContent(8, { kind: "loopx", limits })).ok).toBe(true);
    // Past the minute, the hour still caps it: 3 more rows a minute old, 6 in the hour.
    await dbOf(store).execute(
      sql`UPDATE content_budget SET at = now() - interval '2 minutes' WHERE installation_id = 7`,
    );
    expect((await ops.reserveContent(7, { kind: "loopx", limits })).ok).toBe(true);
    expect((await ops.reserveContent(7, { kind: "loopx", limits })).ok).toBe(true);
    const hour = await ops.reserveContent(7, { kind: "loopx", limits });
    if (hour.ok) throw new Error("the hour's budget should be spent");
    expect(hour.retryAt.getTime()).toBeGreaterThan(now.getTime() + 55 * 60_000);
  });

  it("outsiders' replies have a lane of their own: a ceiling, a few per person, never LoopX's budget", async () => {
    const ops = store.ops;
    const loopx = { kind: "loopx" as const, limits: { perMinute: 2, perHour: 10 } };
    const outsider = (subject: string) => ({
      kind: "outsider" as const,
      subject,
      limits: { perMinute: 4, perHour: 10, perPersonPerHour: 2 },
    });
    // The outsiders' burst: two each, then refused per person, then the installation ceiling.
    const burst = [];
    for (const who of ["a", "a", "a", "b", "b", "c", "d"]) {
      burst.push((await ops.reserveContent(31, outsider(`repo:1:${who}`))).ok);
    }
    expect(burst).toEqual([true, true, false, true, true, false, false]);
    // LoopX's own lane is untouched by all of it.
    expect((await ops.reserveContent(31, loopx)).ok).toBe(true);
    expect((await ops.reserveContent(31, loopx)).ok).toBe(true);
    expect((await ops.reserveContent(31, loopx)).ok).toBe(false);
    // And the other way round: a spent LoopX lane leaves the outsiders' ceiling as it was.
    expect((await ops.reserveContent(32, loopx)).ok).toBe(true);
    expect((await ops.reserveContent(32, loopx)).ok).toBe(true);
    expect((await ops.reserveContent(32, outsider("repo:1:a"))).ok).toBe(true);
  });

  it("applies the kill switch and the USD ceiling without touching other ceiling fields", async () => {
    const ops = store.ops;
    await store.upsertInstallation({ id: 11, spendCeiling: { tokens: 1000 } });
    await store.upsertInstallation({ id: 12 });
    await ops.applyInstallationControls({
      killed: [12, 13],
      spendCeilingUsd: 50,
      spendCeilingUsdByInstallation: { "12": 5 },
    });
    const rows = await dbOf(store)
      .select()
      .from(tables.installations)
      .orderBy(tables.installations.id);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(11)?.spendCeiling).toEqual({ tokens: 1000, usd: 50 });
    expect(byId.get(11)?.killSwitch).toBe(false);
    expect(byId.get(12)?.spendCeiling).toEqual({ usd: 5 });
    expect(await ops.isInstallationKilled(12)).toBe(true);
    expect(await ops.isInstallationKilled(13)).toBe(true);
    expect(await ops.isInstallationKilled(99)).toBe(false);

    // Lifting the controls lifts them everywhere.
    await ops.applyInstallationControls({
      killed: [],
      spendCeilingUsd: null,
      spendCeilingUsdByInstallation: {},
    });
    const [eleven] = await dbOf(store)
      .select()
      .from(tables.installations)
      .where(eq(tables.installations.id, 11));
    expect(eleven?.spendCeiling).toEqual({ tokens: 1000 });
    expect(await ops.isInstallationKilled(12)).toBe(false);
  });

  it("keeps cursors and reports an empty snapshot on an empty store", async () => {
    const ops = store.ops;
    expect(await ops.getCursor("x")).toBeNull();
    await ops.setCursor("x", "41");
    await ops.setCursor("x", "42");
    expect(await ops.getCursor("x")).toBe("42");
    await ops.ping();
    const snap = await ops.snapshot();
    expect(snap.inbox).toMatchObject({ count: 0, oldestAgeSeconds: null, failing: 0 });
    expect(snap.outbox).toMatchObject({ count: 0, pending: 0 });
    expect(snap.deadLetters).toBe(0);
  });
});

describe.skipIf(!serverUrl)("content budget under concurrency (real PostgreSQL)", () => {
  let admin: Store;
  let sessions: Store[] = [];
  let race: RacingSessions | undefined;
  beforeAll(async () => {
    race = await racingSessions(serverUrl ?? "", 12);
    ({ admin, sessions } = race);
  });
  afterAll(() => race?.close());

  it("12 replicas racing for 5 slots: exactly 5 granted", async () => {
    const results = await Promise.all(
      sessions.map((s) =>
        s.ops.reserveContent(21, {
          kind: "loopx",
          limits: { perMinute: 5, perHour: 100 },
        }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    const rows = await dbOf(admin).select().from(tables.contentBudget);
    expect(rows).toHaveLength(5);
  });
});
