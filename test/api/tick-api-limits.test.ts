import { ApiError, AskResponse } from "@loopx/core";
import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/** The per-repository rate limit and the installation's kill switch. */
describe("tick API: rate limit and kill switch", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness({ api: { rateLimit: { perMinute: 6, burst: 3 } } });
  });
  afterAll(() => h.close());

  it("a killed installation answers run:false (stopped) and claims nothing", async () => {
    const goal = await h.startGoal("Refactor", ["Split the module"]);
    await dbOf(h.store).execute(sql`UPDATE installations SET kill_switch = true`);
    const requests = h.sandbox.requests().length;
    const answer = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: goal.goal.issue.number }, await h.token(2001))).body,
    );
    expect(answer).toMatchObject({ run: false, route: "stopped" });
    if (answer.run) throw new Error("unreachable");
    expect(answer.reason).toContain("kill switch");
    expect((await h.store.loadGoal(goal.goal.id))?.ticks).toHaveLength(0);
    // The first call of this harness read the default branch and config; nothing was written.
    const writes = h.sandbox
      .requests()
      .slice(requests)
      .filter(
        (r) => r.method !== "GET" && r.operationId !== "apps/create-installation-access-token",
      );
    expect(writes).toHaveLength(0);
    await dbOf(h.store).execute(sql`UPDATE installations SET kill_switch = false`);
  });

  it("a repository over its rate gets 429 rate_limited", async () => {
    const statuses: number[] = [];
    let limited: { status: number; body: unknown } | null = null;
    for (let i = 0; i < 4; i++) {
      const token = await h.token(2100 + i, { event_name: "schedule" });
      const answer = await h.post("/api/v1/wake", {}, token);
      statuses.push(answer.status);
      if (answer.status === 429) limited = answer;
    }
    // A burst of three per repository (the ask above took one); the sandbox clock stands still.
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect(ApiError.parse(limited?.body).error).toBe("rate_limited");
  });
});
