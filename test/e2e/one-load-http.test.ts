import { AskResponse, ResultResponse } from "@loopx/core";
import { openStore } from "@loopx/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CountingStore, countingStore } from "../support/counting-store.ts";
import { sharedPglite } from "../support/databases.ts";
import { meteredPglite } from "../support/metered-pglite.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: an ask, a report and a writer's comment arrive over the App's HTTP (the tick
 * API, and the webhook GitHub delivers), and each loads its goal's aggregate once: counted
 * at the store port (one goal read, handed to `apply`) and at the database (one aggregate
 * statement that returned a row). The outbox is held while a request is counted, so the
 * writes it queued are not.
 */
describe("e2e: one aggregate load per request, through HTTP", () => {
  const db = { loads: 0 };
  let counting: CountingStore;
  let h: TickHarness;
  let issue: number;

  beforeAll(async () => {
    const inner = await openStore({ pglite: meteredPglite(await sharedPglite(), db) });
    counting = countingStore(inner);
    h = await startTickHarness({ store: counting.store });
    const goal = await h.startGoal("Tidy the parser", ["Split the lexer", "Name the tokens"]);
    issue = goal.goal.issue.number;
  });
  afterAll(async () => {
    await h.close();
    await counting.store.close();
  });

  async function counted<T>(request: () => Promise<T>): Promise<T> {
    await h.settle();
    counting.hold();
    counting.reset();
    db.loads = 0;
    try {
      return await request();
    } finally {
      counting.release();
    }
  }

  function expectOneLoad(): void {
    expect(counting.counts.goalReads, counting.counts.calls.join(", ")).toBe(1);
    expect(counting.counts.appliesWithLoaded).toBe(1);
    expect(counting.counts.appliesWithout).toBe(0);
    expect(db.loads, counting.counts.calls.join(", ")).toBe(1);
  }

  it("an ask reads the goal once and claims on that read", async () => {
    const token = await h.token(7001);
    const asked = await counted(() => h.post("/api/v1/ticks", { goal: issue }, token));
    expect(asked.status).toBe(200);
    const claim = AskResponse.parse(asked.body);
    if (!claim.run) throw new Error(`expected a run, got ${claim.reason}`);
    expectOneLoad();

    const reportToken = await h.token(7001);
    const reported = await counted(() =>
      h.post(
        `/api/v1/ticks/${claim.tickId}/result`,
        {
          leaseToken: claim.leaseToken,
          result: {
            todo: claim.todo,
            outcome: "completed",
            validation: { command: "npm test", exitCode: 0, passed: true, summary: "3 passed" },
            evidence: [{ kind: "test", summary: "lexer tests pass" }],
            handoff: { done: "Split it.", next: "Name the tokens.", questions: [] },
            continuation: { kind: "goal_active" },
            cost: { usd: 0.2, tokens: 4000, runnerMinutes: 3 },
            metering: "proxy",
          },
        },
        reportToken,
      ),
    );
    expect(reported.status, JSON.stringify(reported.body)).toBe(200);
    ResultResponse.parse(reported.body);
    expectOneLoad();
  });

  it("a writer's command, delivered as a webhook, reads the goal once", async () => {
    await counted(async () => {
      await h.as("alice").rest.issues.createComment({
        owner: "acme",
        repo: "widgets",
        issue_number: issue,
        body: "/loopx todo add Document the grammar",
      });
      await h.settle();
    });
    expectOneLoad();
    await h.settle();
    const goal = await h.store.findGoalByIssue(h.repo.id, issue);
    expect(goal?.todos.map((t) => t.title)).toContain("Document the grammar");
  });
});
