import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { fileIssue, keyedComments, label, makeEverythingDue } from "../support/ops-steps.ts";

/**
 * Scenario: the installation's content-creation budget is spent. The next comment is not
 * sent (GitHub never sees a 403) but deferred to when a slot frees, without counting as
 * a failed attempt; then it goes out.
 */
describe("e2e: the per-installation content budget defers writes", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ app: { contentLimits: { perMinute: 1, perHour: 10 } } });
  });
  afterAll(() => h.close());

  it("the second goal's status comment waits for the next window", async () => {
    const a = await fileIssue(h, "wendy", "Compress widget assets");
    const b = await fileIssue(h, "wendy", "Prefetch widget data");
    await label(h, "wendy", a);
    await label(h, "wendy", b);
    await h.settle();

    const posted = [
      (await keyedComments(h, a, "status")).length,
      (await keyedComments(h, b, "status")).length,
    ];
    expect(posted.sort()).toEqual([0, 1]);
    expect(h.sandbox.requests().filter((r) => r.status === 403)).toHaveLength(0);
    const waiting = await dbOf(h.store).execute(
      sql`SELECT attempts, last_error, next_attempt_at > now() + interval '30 seconds' AS later
          FROM outbox WHERE kind = 'status' AND done_at IS NULL`,
    );
    expect(JSON.stringify(waiting)).toContain("content-creation budget");
    expect(JSON.stringify(waiting)).toMatch(/"attempts":0/);
    expect(JSON.stringify(waiting)).toMatch(/"later":true/);

    // A minute later the slot is free again.
    await dbOf(h.store).execute(sql`UPDATE content_budget SET at = at - interval '2 minutes'`);
    await makeEverythingDue(h);
    h.app.outbox.kick();
    await h.settle();
    expect(await keyedComments(h, a, "status")).toHaveLength(1);
    expect(await keyedComments(h, b, "status")).toHaveLength(1);
  });

  it("the kill switch holds dispatches back; lifting it lets them go", async () => {
    const installationId =
      h.sandbox.deliveries().find((d) => d.installationId)?.installationId ?? 0;
    await h.app.ops.applyInstallationControls({
      killed: [installationId],
      spendCeilingUsd: 25,
      spendCeilingUsdByInstallation: {},
    });
    await dbOf(h.store).execute(sql`UPDATE content_budget SET at = at - interval '2 hours'`);
    const c = await fileIssue(h, "alice", "Stop here");
    const before = h.sandbox.requests().length;
    await label(h, "alice", c);
    await h.settle();
    const dispatches = () =>
      h.sandbox
        .requests()
        .slice(before)
        .filter((r) => r.operationId === "actions/create-workflow-dispatch");
    expect(dispatches()).toHaveLength(0);
    const goal = await h.store.findGoalByIssue(h.repo.id, c);
    if (!goal) throw new Error("no goal");
    expect(await h.store.sharedAllowance(goal.goal.id)).toMatchObject({
      installation: { usd: 25 },
    });

    await h.app.ops.applyInstallationControls({
      killed: [],
      spendCeilingUsd: null,
      spendCeilingUsdByInstallation: {},
    });
    await makeEverythingDue(h);
    h.app.outbox.kick();
    await h.settle();
    expect(dispatches()).toHaveLength(1);
  });
});
