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
 * Scenario: the same productive tick under `comments: sticky` (the default) and `quiet`: the
 * sticky repository gets a tick comment beside its status comment, the quiet one only the
 * status comment, which still shows the tick's handoff.
 */
describe("e2e: comments: quiet keeps to the status comment", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  const keysOn = (issue: number) =>
    h.sandbox
      .issue("acme/widgets", issue)
      .comments_list.map((c) => readKey(String(c.body ?? "")))
      .filter((k) => k !== null);

  async function productiveTick(title: string, runId: number) {
    const goal = await h.startGoal(title, ["Profile the renderer"]);
    const issue = goal.goal.issue.number;
    const claim = await askRun(h, issue, runId);
    expect((await reportResult(h, claim, runId, PROGRESS)).status).toBe(200);
    await h.settle();
    return { issue, tickId: claim.tickId };
  }

  it("posts a tick comment when sticky and none when quiet", async () => {
    const sticky = await productiveTick("Speed up rendering", 6001);
    expect(keysOn(sticky.issue)).toContain(`tick:${sticky.tickId}`);

    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "comments: quiet\n" });
    const quiet = await productiveTick("Speed up parsing", 6002);
    const keys = keysOn(quiet.issue);
    expect(keys).not.toContain(`tick:${quiet.tickId}`);
    expect(keys).toContain("status");
    const status = h.sandbox
      .issue("acme/widgets", quiet.issue)
      .comments_list.find((c) => readKey(String(c.body ?? "")) === "status");
    expect(String(status?.body)).toContain("Profiled.");
  }, 120_000);
});
