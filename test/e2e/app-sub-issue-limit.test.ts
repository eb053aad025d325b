import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { expectWarning } from "../support/expected-warnings.ts";
import { botComments, comment, goal, startGoal } from "../support/goal-steps.ts";
import { waitUntil } from "../support/ops-steps.ts";

const o = { owner: "acme", repo: "widgets" } as const;

/**
 * Scenario: a goal issue already has 100 sub-issues, GitHub's most for one parent. A todo
 * asked for as a sub-issue gets none: no issue is created beside the refused link, the
 * outbox gives up after its few permanent-failure attempts (no retry storm), and the status
 * comment names the dead letter and what to do.
 */
describe("e2e: a todo's sub-issue past GitHub's 100 per parent", () => {
  let h: Harness;
  let number: number;
  let goalId: string;

  beforeAll(async () => {
    h = await startHarness({
      onPostgres: true,
      app: { outbox: { retryBaseMs: 50, retryMaxMs: 200 } },
    });
    ({ number, goalId } = await startGoal(h, "alice"));
    // Linked by a bot: LoopX observes bots, so these add no todos.
    const bot = h.sandbox.createUser("tracker[bot]", { type: "Bot" });
    h.sandbox.repoByFullName("acme/widgets").collaborators.set(bot.id, "write");
    // The scaffold's 100 issues are no part of the scenario: GitHub's content limits stay
    // off while it is built.
    h.sandbox.faults.secondaryLimits = false;
    for (let i = 0; i < 100; i++) {
      const { data } = await h.as("wendy").rest.issues.create({ ...o, title: `old ${i}` });
      await h
        .as("tracker[bot]")
        .rest.issues.addSubIssue({ ...o, issue_number: number, sub_issue_id: data.id });
    }
    h.sandbox.faults.secondaryLimits = true;
    await h.settle();
  }, 120_000);
  afterAll(() => h.close());

  it("creates no issue, stops after a few attempts, and says so on the status comment", async () => {
    expectWarning(/^outbox todo:T1:sub_issue for goal .*: will retry: .*100 sub-issues/);
    expectWarning(/^outbox todo:T1:sub_issue for goal .*: dead letter: .*100 sub-issues/);
    expect((await goal(h, goalId)).todos).toEqual([]);
    const from = h.sandbox.requests().length;
    await comment(h, "alice", number, "/loopx todo add Write the docs --issue");
    await waitUntil(h, async () => (await h.store.deadLetters(goalId)).length === 1);
    await h.settle();
    const requests = h.sandbox.requests().slice(from);
    expect(requests.filter((r) => r.operationId === "issues/create")).toEqual([]);
    expect(requests.filter((r) => r.operationId === "issues/add-sub-issue")).toEqual([]);
    const lists = requests.filter((r) => r.operationId === "issues/list-sub-issues");
    // One look per attempt; a refusal GitHub would repeat is tried three times, then parked.
    expect(lists).toHaveLength(3);
    const t1 = (await goal(h, goalId)).todos.find((t) => t.key === "T1");
    expect(t1).toMatchObject({ title: "Write the docs", status: "ready", subIssue: null });
    const status = (await botComments(h, number)).find((c) => c.key === "status");
    expect(status?.body).toContain("100 sub-issues");
  });
});
