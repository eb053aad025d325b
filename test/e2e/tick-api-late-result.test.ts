import { ApiError, AskResponse } from "@loopx/core";
import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/** Scenario: a slice outlives its lease; its result is refused, kept as evidence, never applied. */
describe("e2e: a result after the lease expired", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("is refused (409), charged at the cap, kept once as evidence, and the todo is ready again", async () => {
    const goal = await h.startGoal("Port the CLI", ["Port argument parsing"]);
    const issue = goal.goal.issue.number;
    const claim = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: issue }, await h.token(8001))).body,
    );
    if (!claim.run) throw new Error("expected a run");
    // The database clock moves past the lease (as 45 minutes of silence would).
    await dbOf(h.store).execute(
      sql`UPDATE ticks SET lease_expires_at = now() - interval '1 minute' WHERE id = ${claim.tickId}`,
    );
    await dbOf(h.store).execute(
      sql`UPDATE todos SET lease_expires_at = now() - interval '1 minute' WHERE claim_tick_id = ${claim.tickId}`,
    );
    const body = {
      leaseToken: claim.leaseToken,
      result: {
        todo: "T1",
        outcome: "completed",
        continuation: { kind: "no_followup", reason: "done" },
        validation: { command: "npm test", exitCode: 0, passed: true },
        commits: [{ sha: "b".repeat(40), message: "Port parsing" }],
        handoff: { done: "Ported the parser.", next: "", questions: [] },
        cost: { usd: 0.2, tokens: 500, runnerMinutes: 3 },
      },
    };
    const requests = h.sandbox.requests().length;
    for (let i = 0; i < 2; i++) {
      const late = await h.post(`/api/v1/ticks/${claim.tickId}/result`, body, await h.token(8001));
      expect(late.status).toBe(409);
      expect(ApiError.parse(late.body).message).toContain("expired");
    }
    // No push token was minted for a result that could not be accepted.
    const mints = h.sandbox
      .requests()
      .slice(requests)
      .filter((r) => r.operationId === "apps/create-installation-access-token");
    expect(mints).toHaveLength(0);

    const state = await h.store.loadGoal(goal.goal.id);
    const tick = state?.ticks.find((t) => t.id === claim.tickId);
    expect(tick?.failure).toBe("lease_expired");
    expect(tick?.cost).toEqual({ usd: 2, tokens: 1_000_000, runnerMinutes: 30 });
    expect(tick?.slotSpent).toBe(false);
    const todo = state?.todos.find((t) => t.key === "T1");
    expect(todo?.status).toBe("ready");
    expect(todo?.claim).toBeNull();
    expect(state?.evidence.filter((e) => e.kind === "host_failure")).toHaveLength(1);
    const kept = state?.evidence.filter((e) => e.summary.startsWith("late result of tick #1 "));
    expect(kept).toHaveLength(1);
    expect(kept?.[0]?.sha).toBe("b".repeat(40));
    expect(state?.goal.backoff.stalledTicks).toBe(1);
  });
});
