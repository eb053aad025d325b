import { readKey } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { askRun, reportResult } from "../support/tick-calls.ts";

const PROGRESS = {
  outcome: "progress",
  validation: { command: "npm test", exitCode: 0, passed: true, summary: "3 passed" },
  commits: [{ sha: "b".repeat(40), message: "Profile the renderer" }],
  handoff: { done: "Profiled.", next: "Cache layout.", questions: [] },
};

/**
 * Scenario: the same productive tick with no `.github/loopx.yml` (`comments: quiet`, the
 * default) and under `comments: sticky`: the default repository gets only the status comment,
 * which shows the tick's handoff; the sticky one a tick comment beside it.
 */
describe("e2e: comments: quiet (the default) keeps to the status comment", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  const commentsOn = (issue: number) => h.sandbox.issue("acme/widgets", issue).comments_list;
  const keysOn = (issue: number) =>
    commentsOn(issue)
      .map((c) => readKey(String(c.body ?? "")))
      .filter((k) => k !== null);

  async function productiveTick(title: string, runId: number) {
    const goal = await h.startGoal(title, ["Profile the renderer"]);
    const issue = goal.goal.issue.number;
    const claim = await askRun(h, issue, runId);
    expect((await reportResult(h, claim, runId, PROGRESS)).status).toBe(200);
    await h.settle();
    return { issue, tickId: claim.tickId };
  }

  it("posts no tick comment by default and one under comments: sticky", async () => {
    const quiet = await productiveTick("Speed up parsing", 6001);
    expect(keysOn(quiet.issue)).toEqual(["status"]);
    const status = commentsOn(quiet.issue).find((c) => readKey(String(c.body ?? "")) === "status");
    expect(String(status?.body)).toContain("Profiled.");

    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "comments: sticky\n" });
    const sticky = await productiveTick("Speed up rendering", 6002);
    expect(keysOn(sticky.issue)).toContain(`tick:${sticky.tickId}`);
  }, 120_000);
});
