import { AskResponse, ResultResponse, setBudget } from "@loopx/core";
import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const TICKS = 3;

/**
 * Scenario: every slice of a goal crashes. Each is charged (at least the tick cap), backoff
 * grows, and once the goal's budget (ticks=3) is spent the App answers over_budget and never
 * claims another tick — however often the workflow asks.
 */
describe("e2e: a goal whose every slice fails stops at its budget", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("runs exactly `ticks` failing slices, then answers over_budget", async () => {
    const goal = await h.startGoal("Fix the flaky build", ["Make the build green"]);
    const issue = goal.goal.issue.number;
    const budgeted = await h.store.apply(goal.goal.id, (s, now) =>
      setBudget(
        s,
        { limits: { ticks: TICKS } },
        {
          actor: { kind: "human", login: "alice", trusted: true },
          now,
          newId: () => crypto.randomUUID(),
        },
      ),
    );
    if (!budgeted.ok) throw new Error(budgeted.refusal.message);
    const cap = budgeted.state.goal.tickCap;

    const answers: AskResponse[] = [];
    for (let run = 1; run <= TICKS + 3; run++) {
      // Backoff would make the next ask a wait; the budget, checked first, must still trip.
      await dbOf(h.store).execute(
        sql`UPDATE goals SET backoff = jsonb_set(backoff, '{until}', 'null') WHERE id = ${goal.goal.id}`,
      );
      const asked = await h.post("/api/v1/ticks", { goal: issue }, await h.token(2300 + run));
      expect(asked.status).toBe(200);
      const answer = AskResponse.parse(asked.body);
      answers.push(answer);
      if (!answer.run) continue;
      const reported = await h.post(
        `/api/v1/ticks/${answer.tickId}/result`,
        {
          leaseToken: answer.leaseToken,
          result: {
            todo: answer.todo,
            outcome: "failed",
            failure: "host_failure",
            handoff: { done: "The runner died.", next: "Try again.", questions: [] },
            cost: { usd: 0.01, tokens: 10, runnerMinutes: 1 },
          },
        },
        await h.token(2300 + run),
      );
      expect(reported.status).toBe(200);
      ResultResponse.parse(reported.body);
    }

    expect(answers.map((a) => a.run)).toEqual([true, true, true, false, false, false]);
    for (const stop of answers.slice(TICKS)) {
      if (stop.run) throw new Error("ran past the budget");
      expect(stop.route).toBe("over_budget");
      expect(stop.reason).toContain(`ticks (spent ${TICKS} of ${TICKS})`);
    }
    const state = await h.store.loadGoal(goal.goal.id);
    expect(state?.ticks).toHaveLength(TICKS);
    expect(state?.ticks.every((t) => t.failure === "host_failure" && !t.slotSpent)).toBe(true);
    // A crashed slice is charged the cap, whatever it reported.
    expect(state?.goal.spent.ticks).toBe(TICKS);
    expect(state?.goal.spent.usd).toBeCloseTo(TICKS * cap.usd, 10);
    expect(state?.goal.spent.tokens).toBe(TICKS * cap.tokens);
    expect(state?.goal.backoff.stalledTicks).toBe(TICKS);
    const todo = state?.todos.find((t) => t.key === "T1");
    expect(todo?.claim).toBeNull();
  });
});
