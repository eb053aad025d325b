import { ApiError } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CountedStore, countingStore } from "../support/counting-pglite.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * A replayed or over-limit OIDC token costs the App no database work: the token, its one use
 * and the repository's rate are checked before the first query. Counted at the store port
 * (every statement the App sends to its database), not inferred from timings.
 */
describe("hostile: the tick API checks a token before it touches the database", () => {
  let h: TickHarness;
  let meter: CountedStore;
  beforeAll(async () => {
    meter = await countingStore();
    // A burst of four per repository; the sandbox clock stands still, so nothing refills.
    h = await startTickHarness({
      store: meter.store,
      api: { rateLimit: { perMinute: 1, burst: 4 } },
    });
    await h.startGoal("Harden the parser", ["Fuzz the tokenizer"]);
  });
  afterAll(async () => {
    await h.close();
    await meter.store.close();
  });

  /** One call, with the statements it sent to the database. */
  async function metered(token: string) {
    await h.settle();
    meter.reset();
    const answer = await h.post("/api/v1/wake", {}, token);
    return { status: answer.status, body: answer.body, queries: meter.count() };
  }

  it("an accepted call does database work (the meter reads)", async () => {
    const first = await metered(await h.token(8100, { event_name: "schedule" }));
    expect(first.status).toBe(200);
    expect(first.queries).toBeGreaterThan(0);
  });

  it("a replayed token: 401, zero queries", async () => {
    const token = await h.token(8101, { event_name: "schedule" });
    expect((await metered(token)).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const replay = await metered(token);
      expect(replay.status).toBe(401);
      expect(ApiError.parse(replay.body).message).toContain("already used");
      expect(replay.queries).toBe(0);
    }
  });

  it("over the repository's rate: 429, zero queries, even with fresh tokens", async () => {
    const over = await metered(await h.token(8102, { event_name: "schedule" }));
    expect(over.status).toBe(429);
    expect(ApiError.parse(over.body).error).toBe("rate_limited");
    expect(over.queries).toBe(0);
    const again = await metered(await h.token(8103, { event_name: "schedule" }));
    expect([again.status, again.queries]).toEqual([429, 0]);
  });
});
