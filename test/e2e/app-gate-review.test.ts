import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { botComments, goal, openTestGate, startGoalWithPull } from "../support/goal-steps.ts";

const repo = { owner: "acme", repo: "widgets" } as const;

/**
 * Scenario: a PR-bound gate. The owners are asked for a review on the PR (an @mention for
 * anyone GitHub will not ask); an approving review resolves the gate only from a writer and
 * only for the PR's current head; a later push reopens it.
 */
describe("e2e: a PR-bound gate and reviews of the current vs a stale head", () => {
  let h: Harness;
  let number: number;
  let goalId: string;
  let pr: number;
  let first: string;
  let second: string;
  beforeAll(async () => {
    h = await startHarness();
    ({ number, goalId, pr, first } = await startGoalWithPull(h));
    // wendy opened the PR: GitHub will not request her review, so she gets a mention.
    await openTestGate(h, goalId, {
      question: "May I merge the fix?",
      scopes: ["merge"],
      requestedFrom: ["alice", "wendy"],
      pr: { number: pr, headSha: first },
    });
  });
  afterAll(() => h.close());

  const review = async (login: string, commitId: string) => {
    await h.as(login).rest.pulls.createReview({
      ...repo,
      pull_number: pr,
      event: "APPROVE",
      commit_id: commitId,
    });
    await h.settle();
  };
  const g1 = async () => (await goal(h, goalId)).gates[0];

  it("asks alice for a review and mentions wendy once on the PR", async () => {
    const { data } = await h.as("alice").rest.pulls.listRequestedReviewers({
      ...repo,
      pull_number: pr,
    });
    expect(data.users.map((u) => u.login)).toEqual(["alice"]);
    const mentions = (await botComments(h, pr)).filter((c) => c.key === "gate:G1:review:mention");
    expect(mentions).toHaveLength(1);
    expect(mentions[0]?.body).toContain("@wendy");
  });

  it("a push moves the head; an approval of the old head does nothing but a reply", async () => {
    second = h.sandbox.push("acme/widgets", "loopx/1-T1", { "fix.txt": "two\n" }, "wendy");
    await h.settle();
    expect((await g1())?.pr?.headSha).toBe(second);

    await review("alice", first);
    expect((await g1())?.status).toBe("open");
    const reply = (await botComments(h, pr)).find((c) => c.body.includes("stays open"));
    expect(reply?.body).toContain(`was for \`${first.slice(0, 7)}\``);
    expect(reply?.body).toContain(`now at \`${second.slice(0, 7)}\``);
  });

  it("an approval from someone without write access does not count", async () => {
    await review("tom", second);
    expect((await g1())?.status).toBe("open");
    const reply = (await botComments(h, pr)).find((c) => c.body.includes("takes write access"));
    expect(reply).toBeDefined();
  });

  it("a writer's approval of the current head resolves the gate, with a receipt", async () => {
    await review("alice", second);
    expect(await g1()).toMatchObject({
      status: "approved",
      resolvedBy: "alice",
      pr: { number: pr, headSha: second },
    });
    const receipt = (await botComments(h, number)).find(
      (c) => c.key === `receipt:gate:G1:approved@${second}`,
    );
    expect(receipt?.body).toContain("approved G1 (merge)");
  });

  it("a later push reopens the approved gate and says so on the goal issue", async () => {
    const third = h.sandbox.push("acme/widgets", "loopx/1-T1", { "fix.txt": "three\n" }, "wendy");
    await h.settle();
    expect(await g1()).toMatchObject({
      status: "open",
      resolvedBy: null,
      pr: { number: pr, headSha: third },
    });
    const reopened = (await botComments(h, number)).find(
      (c) => c.key === `gate:G1:reopened:${third.slice(0, 12)}`,
    );
    expect(reopened?.body).toContain("Gate G1 needs a decision");

    // And an approval of the new head resolves it again.
    await review("alice", third);
    expect((await g1())?.status).toBe("approved");
  });
});
