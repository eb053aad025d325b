import { AskResponse } from "@loopx/core";
import { openStore, type Store } from "@loopx/store";
import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createScheduler } from "../../app/src/scheduler/create-scheduler.ts";
import { freshDatabase } from "../support/databases.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const serverUrl = inject("pgUrl");

/** Scenario (real PostgreSQL): racing asks and racing replicas never double-claim or double-dispatch. */
describe.skipIf(!serverUrl)("e2e on PostgreSQL: concurrent asks for one goal", () => {
  let h: TickHarness;
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    if (!serverUrl) return;
    const db = await freshDatabase(serverUrl);
    drop = db.drop;
    store = await openStore({ databaseUrl: db.url });
    h = await startTickHarness({ store });
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
    await drop?.();
  });

  it("exactly one of two simultaneous asks runs; the other waits", async () => {
    const goal = await h.startGoal("Parallel safety", ["The only todo"]);
    const issue = goal.goal.issue.number;
    const [a, b] = await Promise.all([h.token(3001), h.token(3002)]);
    const answers = await Promise.all([
      h.post("/api/v1/ticks", { goal: issue }, a ?? ""),
      h.post("/api/v1/ticks", { goal: issue }, b ?? ""),
    ]);
    expect(answers.map((x) => x.status)).toEqual([200, 200]);
    const parsed = answers.map((x) => AskResponse.parse(x.body));
    expect(parsed.filter((p) => p.run)).toHaveLength(1);
    expect(parsed.find((p) => !p.run)?.route).toBe("wait");
    const state = await h.store.loadGoal(goal.goal.id);
    expect(state?.ticks).toHaveLength(1);
  });

  it("two replicas' schedulers dispatch an overdue goal once", async () => {
    const goal = await h.startGoal("Replica safety", ["Another todo"]);
    await dbOf(h.store).execute(
      sql`UPDATE goals SET next_wake_at = now() - interval '5 minutes' WHERE id = ${goal.goal.id}`,
    );
    // Overdue: the label's dispatch is past the 15 minutes its run had to ask.
    await dbOf(h.store).execute(
      sql`UPDATE tick_dispatches SET dispatched_at = now() - interval '20 minutes' WHERE goal_id = ${goal.goal.id}`,
    );
    const replicas = [createScheduler(h.app.deps), createScheduler(h.app.deps)];
    const passes = await Promise.all(replicas.map((s) => s.tick()));
    expect(passes.flatMap((p) => p.dispatched)).toEqual([`acme/widgets#${goal.goal.issue.number}`]);
  });
});
