import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { botComments, comment, replyTo } from "../support/goal-steps.ts";
import { label } from "../support/ops-steps.ts";

/**
 * A `.github/loopx.yml` that is not YAML at all (a syntax error, not a wrong field). The goal
 * starts paused and the issue says why and what to do — no crash, no endless retry of the
 * delivery, no defaults standing in for the file; `/loopx resume` is refused with the same
 * reason until the file is fixed. (A wrong field: test/e2e/app-resume-config.test.ts.)
 */
describe("hostile: a config file that is not YAML", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ files: { ".github/loopx.yml": "label: [loopx\nbudgets: {goal: \n" } });
  });
  afterAll(() => h.close());

  it("is reported on the issue, the goal waits paused, nothing is retried", async () => {
    const { data } = await h
      .as("alice")
      .rest.issues.create({ owner: "acme", repo: "widgets", title: "Broken config", body: "Go." });
    await label(h, "alice", data.number);
    await h.settle();
    expect((await h.app.ops.snapshot()).inbox).toMatchObject({ count: 0, failing: 0 });
    const state = await h.store.findGoalByIssue(h.repo.id, data.number);
    expect(state?.goal.status).toBe("paused");
    const status = (await botComments(h, data.number)).find((c) => c.key === "status");
    expect(status?.body).toContain("not a YAML mapping");
    expect(status?.body).toContain("resume");

    const before = state?.goal.version;
    const id = await comment(h, "alice", data.number, "/loopx resume");
    expect((await replyTo(h, data.number, id))?.body).toContain("not a YAML mapping");
    const after = await h.store.findGoalByIssue(h.repo.id, data.number);
    expect(after?.goal.status).toBe("paused");
    expect(after?.goal.version).toBe(before);
  });
});
