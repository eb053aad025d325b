import { dbOf, eq, tables } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { fileIssue, keyedComments, label } from "../support/ops-steps.ts";

/** Scenario: GitHub sends the same delivery twice (a duplicate, then a redelivery). */
describe("e2e: the same delivery twice is applied once", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it("a duplicated and then redelivered label starts one goal and posts one status", async () => {
    const number = await fileIssue(h, "wendy", "Trim the widget bundle");
    h.sandbox.faults.webhook({ mode: "duplicate", event: "issues.labeled", times: 1 });
    await label(h, "wendy", number);
    await h.settle();

    const sent = h.sandbox
      .deliveries()
      .filter((d) => d.event === "issues" && d.action === "labeled");
    const guid = sent.at(-1)?.guid ?? "";
    // GitHub's own redelivery (same X-GitHub-Delivery), asked for through the API.
    const octokit = await h.appOctokit();
    await octokit.request("POST /app/hook/deliveries/{delivery_id}/attempts", {
      delivery_id: sent.at(-1)?.id ?? 0,
    });
    await h.settle();

    const attempts = h.sandbox.deliveries().filter((d) => d.guid === guid);
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    const rows = await dbOf(h.store)
      .select()
      .from(tables.inbox)
      .where(eq(tables.inbox.deliveryId, guid));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.outcome).toBe("applied");

    const goal = await h.store.findGoalByIssue(h.repo.id, number);
    expect(goal?.goal.version).toBe(1);
    expect(await keyedComments(h, number, "status")).toHaveLength(1);
    const events = await dbOf(h.store)
      .select()
      .from(tables.events)
      .where(eq(tables.events.deliveryId, guid));
    expect(events.length).toBeGreaterThan(0);
    expect(new Set(events.map((e) => e.versionAfter))).toEqual(new Set([1]));
  });
});
