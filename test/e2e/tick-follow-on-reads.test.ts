import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installationRequests, openPulls, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: two productive ticks on one todo branch, counted from the sandbox's request log.
 * The second push updates the PR it already has and opens none; the next tick's dispatch,
 * queued by the report, goes to the default branch the tick API already read, without
 * reading the repository.
 */
describe("e2e: what a follow-on tick reads for facts the App holds", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "comments: sticky\n" }, "alice");
  });
  afterAll(() => h.close());

  const app = (from: number) => installationRequests(h, from);

  let issue = 0;

  it("updates the PR it has and dispatches without reading the repository", async () => {
    const goal = await h.startGoal("Speed up rendering", ["Cache layout", "Document it"]);
    issue = goal.goal.issue.number;
    await playTick(h, issue, { "src/layout.ts": "export const cache = 1;\n" });
    await h.sandbox.idle();
    await h.settle();
    const [pr] = await openPulls(h);
    if (!pr) throw new Error("the first tick opened no PR");

    const from = h.sandbox.requests().length;
    await playTick(h, issue, { "src/layout.ts": "export const cache = 2;\n" });
    await h.sandbox.idle();
    await h.settle();
    const made = app(from);
    expect(made.filter((r) => r.operationId === "pulls/create")).toEqual([]);
    expect(made.filter((r) => r.operationId === "repos/get")).toEqual([]);
    const dispatches = made.filter((r) => r.operationId === "actions/create-workflow-dispatch");
    expect(dispatches.length).toBeGreaterThan(0);
    for (const d of dispatches) expect(d.body).toMatchObject({ ref: "main" });
    expect((await openPulls(h)).map((p) => p.number)).toEqual([pr.number]);
  }, 120_000);
});
