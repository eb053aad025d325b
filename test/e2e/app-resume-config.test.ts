import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { comment, goal, reactions, replyTo, startGoal } from "../support/goal-steps.ts";

/**
 * Scenario: a goal paused by an invalid `.github/loopx.yml`. `/loopx resume` re-reads the
 * file: still invalid → refused with the errors; fixed → the goal runs.
 */
describe("e2e: /loopx resume re-reads the config", () => {
  let h: Harness;
  let number: number;
  let goalId: string;
  beforeAll(async () => {
    h = await startHarness({ files: { ".github/loopx.yml": "lable: loopx\n" } });
    ({ number, goalId } = await startGoal(h, "alice"));
  });
  afterAll(() => h.close());

  it("refused while the file is invalid, with the path and what to do", async () => {
    expect((await goal(h, goalId)).goal.status).toBe("paused");
    const id = await comment(h, "alice", number, "/loopx resume");
    expect(await reactions(h, id)).toEqual(["eyes"]);
    const reply = await replyTo(h, number, id);
    expect(reply?.body).toContain("still invalid");
    expect(reply?.body).toContain("lable");
    expect((await goal(h, goalId)).goal.status).toBe("paused");
  });

  it("applies once the file is fixed", async () => {
    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "label: loopx\n" }, "alice");
    await h.settle();
    const id = await comment(h, "alice", number, "/loopx resume");
    expect(await reactions(h, id)).toEqual(["+1", "eyes"]);
    expect((await goal(h, goalId)).goal.status).toBe("active");
  });
});
