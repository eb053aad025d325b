import {
  AskResponse,
  BACKOFF_LADDER_MINUTES,
  decide,
  type GoalState,
  goalStateWords,
  STALLED_TICKS_ASK_HUMAN,
  STALLED_TICKS_REPLAN,
} from "@loopx/core";
import { readKey } from "@loopx/github";
import { openStore, type Store } from "@loopx/store";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freshDatabase } from "../support/databases.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { installSimClock, type SimClock } from "./support/sim-clock.ts";

const serverUrl = inject("pgUrl");
const DAY = 24 * 3_600_000;
const MONTH = 30 * DAY;
const SLICE_COST = { usd: 0.5, tokens: 20_000, runnerMinutes: 10 };

/**
 * Fault: a goal that never makes progress, left alone for a simulated month (the database
 * clock, which every lease, backoff window and wake is judged on, moved forward). The App's
 * own scheduler dispatches it; every slice reports no change. LoopX backs off up the ladder,
 * asks for a replan, then asks a person and stops spending; the spend stays within the
 * goal's budget, and the issue gets a handful of comments, not one per wake.
 */
describe.skipIf(!serverUrl)("fault: a month of a goal that never makes progress", () => {
  let clock: SimClock;
  let store: Store;
  let h: TickHarness;
  let drop = async () => {};
  beforeAll(async () => {
    const db = await freshDatabase(serverUrl ?? "");
    drop = db.drop;
    clock = await installSimClock(db.url);
    store = await openStore({ databaseUrl: db.url });
    h = await startTickHarness({ store });
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
    await clock?.close();
    await drop();
  });

  it("backs off, replans, asks a person, stays in budget and does not spam", async () => {
    const started = await h.startGoal("Make the flaky widget test pass", ["Fix the flaky test"]);
    const id = started.goal.id;
    const load = async (): Promise<GoalState> => {
      const s = await h.store.loadGoal(id);
      if (!s) throw new Error("the goal is gone");
      return s;
    };
    const dispatches = () =>
      h.sandbox
        .requests()
        .filter((r) => r.operationId === "actions/create-workflow-dispatch" && r.status < 300)
        .length;
    let handled = dispatches();
    let run = 20_000;
    const routes: string[] = [];
    const starts: number[] = [];

    while (clock.shifted() < MONTH) {
      // The App's own wake loop; each dispatch is a workflow run that asks.
      await h.app.scheduler.tick();
      h.app.outbox.kick();
      await h.settle();
      for (; handled < dispatches(); handled++) {
        run += 1;
        const asked = await h.post(
          "/api/v1/ticks",
          { goal: started.goal.issue.number },
          await h.token(run),
        );
        expect(asked.status, JSON.stringify(asked.body)).toBe(200);
        const claim = AskResponse.parse(asked.body);
        routes.push(claim.route);
        if (!claim.run) continue;
        starts.push((await h.store.databaseNow()).getTime());
        const sent = await h.post(
          `/api/v1/ticks/${claim.tickId}/result`,
          {
            leaseToken: claim.leaseToken,
            result: {
              todo: claim.todo,
              outcome: "no_change",
              handoff: { done: "Tried again; still flaky.", next: "Try again.", questions: [] },
              cost: SLICE_COST,
              // As the metering proxy counted it: an unmetered slice would be charged the cap.
              metering: "proxy",
            },
          },
          await h.token(run),
        );
        expect(sent.status, JSON.stringify(sent.body)).toBe(200);
        h.app.outbox.kick();
        await h.settle();
      }
      // Time passes: to just after the next wake, or a day when nothing is due.
      const s = await load();
      const now = (await h.store.databaseNow()).getTime();
      const wake = s.goal.nextWakeAt?.getTime() ?? null;
      const step =
        wake !== null && wake > now ? wake - now + 2 * 60_000 : wake === null ? DAY : 2 * 60_000;
      await clock.advance(Math.min(step, DAY));
    }

    const s = await load();
    // Every dispatch ran a slice: the App woke the goal only when the kernel would run it.
    expect(routes).toHaveLength(STALLED_TICKS_ASK_HUMAN);
    // Plain runs until the stall reaches the replan threshold, replans after it.
    expect(routes).toEqual(routes.map((_, i) => (i < STALLED_TICKS_REPLAN ? "run" : "replan")));
    expect(s.todos.some((t) => t.kind === "plan")).toBe(true);
    // Each wait is at least the ladder's rung for that many stalls (the last rung repeats),
    // and the App woke the goal within the step this loop moves the clock by.
    const gaps = starts.slice(1).map((t, i) => (t - (starts[i] ?? 0)) / 60_000);
    gaps.forEach((gap, i) => {
      const rung = BACKOFF_LADDER_MINUTES[Math.min(i, BACKOFF_LADDER_MINUTES.length - 1)] ?? 0;
      expect(gap).toBeGreaterThanOrEqual(rung);
      expect(gap).toBeLessThanOrEqual(rung + 3);
    });
    // Then it asks a person, and spends nothing more for the rest of the month.
    expect(s.goal.backoff.stalledTicks).toBe(STALLED_TICKS_ASK_HUMAN);
    expect(decide(s, await h.store.databaseNow(), "loopx").route).toBe("ask_human");
    expect(s.ticks).toHaveLength(STALLED_TICKS_ASK_HUMAN);
    expect(s.goal.spent).toEqual({
      usd: STALLED_TICKS_ASK_HUMAN * SLICE_COST.usd,
      tokens: STALLED_TICKS_ASK_HUMAN * SLICE_COST.tokens,
      // Runner minutes are the jobs API's: these runs have no jobs there, so each is the cap.
      runnerMinutes: STALLED_TICKS_ASK_HUMAN * s.goal.tickCap.runnerMinutes,
      ticks: STALLED_TICKS_ASK_HUMAN,
    });
    const budget = s.goal.budget;
    expect(s.goal.spent.usd).toBeLessThanOrEqual(budget.usd ?? Number.POSITIVE_INFINITY);
    expect(s.goal.spent.ticks).toBeLessThanOrEqual(budget.ticks ?? Number.POSITIVE_INFINITY);

    // No spam in a month: the sticky status, one notice mentioning the owners when the stall
    // asked for help (an edit notifies nobody), and one reminder a day later — never more.
    const alice = new Octokit({
      baseUrl: h.sandbox.url,
      auth: h.sandbox.createUserToken("alice"),
      request: { retries: 0 },
    });
    const at = { owner: "acme", repo: "widgets", issue_number: started.goal.issue.number };
    const comments = await alice.paginate(alice.rest.issues.listComments, { ...at, per_page: 100 });
    const stalled = `stall:t${STALLED_TICKS_ASK_HUMAN + 1}`;
    const keys = comments.map((c) => readKey(c.body ?? ""));
    expect(keys.filter((k) => !k?.startsWith("notify:digest:"))).toEqual([
      "status",
      `notify:${stalled}`,
      `notify:${stalled}:remind`,
    ]);
    // And one digest (daily by default): the goal had stopped and asked for help before its
    // first was due, and nothing moved after, so none followed it.
    expect((starts.at(-1) ?? 0) - s.goal.createdAt.getTime()).toBeLessThan(DAY);
    expect(keys.filter((k) => k?.startsWith("notify:digest:"))).toEqual(["notify:digest:1"]);
    const digest = comments.find((c) => readKey(c.body ?? "") === "notify:digest:1")?.body ?? "";
    const now = await h.store.databaseNow();
    expect(digest).toContain(`- Now: ${goalStateWords(s, decide(s, now, "loopx"), now)}.`);
    expect(digest).toContain(`- Spent: $${s.goal.spent.usd.toFixed(2)}`);
    expect(comments[0]?.body).toContain("replanning alone has not helped");

    // The person answers with a new todo: trusted input, and the loop runs again.
    await alice.rest.issues.createComment({
      ...at,
      body: "/loopx todo add Quarantine the flaky test",
    });
    await h.settle();
    await h.app.scheduler.tick();
    h.app.outbox.kick();
    await h.settle();
    expect(dispatches()).toBe(handled + 1);
    const asked = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: at.issue_number }, await h.token(run + 1))).body,
    );
    expect(asked.run).toBe(true);
  });
});
