import { readKey } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installationRequests, openPulls, personClient, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: a tick pushes its todo branch → the App opens the PR with its own identity
 * (`Refs #<goal>`, never `Fixes #<goal>`) and the goal lists it; a later push updates that PR
 * instead of opening another; a PR someone else opened on a LoopX-named branch is not linked.
 */
describe("e2e: the App opens and links a tick's pull request", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("opens one PR per todo branch, updates it on the next push, lists it on the status", async () => {
    const goal = await h.startGoal("Speed up rendering", ["Cache layout"]);
    const issue = goal.goal.issue.number;

    const from = h.sandbox.requests().length;
    const first = await playTick(h, issue, { "src/layout.ts": "export const cache = 1;\n" });
    await h.settle();
    // A branch the goal never had a PR on: GitHub's answer to the create is the only read.
    const listed = installationRequests(h, from).filter((r) => r.operationId === "pulls/list");
    expect(listed).toEqual([]);
    let pulls = (await openPulls(h)).filter((p) => p.head.ref === first.branch);
    expect(pulls).toHaveLength(1);
    const pr = pulls[0];
    if (!pr) throw new Error("no PR");
    expect(pr.user?.login).toBe("loopx[bot]");
    expect(pr.base.ref).toBe("main");
    expect(pr.title).toBe("T1: Cache layout");
    expect(pr.body).toContain(`Refs #${issue}`);
    expect(pr.body).not.toMatch(new RegExp(`(close|fix|resolve)[sd]?\\s+#${issue}\\b`, "i"));

    let state = await h.store.loadGoal(goal.goal.id);
    expect(state?.pullRequests.map((p) => [p.number, p.todo, p.headSha])).toEqual([
      [pr.number, "T1", first.sha],
    ]);
    const status = h.sandbox
      .issue("acme/widgets", issue)
      .comments_list.find((c) => readKey(String(c.body ?? "")) === "status");
    expect(String(status?.body)).toContain(`#${pr.number} for T1 · open`);

    // The next tick on the same todo pushes the same branch: the PR is updated, not doubled.
    const second = await playTick(h, issue, { "src/layout.ts": "v3\n" });
    expect(second.branch).toBe(first.branch);
    await h.settle();
    pulls = (await openPulls(h)).filter((p) => p.head.ref === first.branch);
    expect(pulls.map((p) => p.number)).toEqual([pr.number]);
    state = await h.store.loadGoal(goal.goal.id);
    expect(state?.pullRequests.map((p) => [p.number, p.headSha])).toEqual([
      [pr.number, second.sha],
    ]);
  }, 120_000);

  it("a PR someone else opened on a LoopX-named branch is not linked", async () => {
    const goal = await h.startGoal("Tidy the docs", ["Fix typos"]);
    const issue = goal.goal.issue.number;
    const branch = `loopx/${issue}-T1`;
    h.sandbox.push(h.repo.fullName, branch, { "docs/a.md": "typo\n" }, "alice");
    const { data: theirs } = await personClient(h, "alice").rest.pulls.create({
      owner: "acme",
      repo: "widgets",
      head: branch,
      base: "main",
      title: "Looks like LoopX's",
      body: `Fixes #${issue}`,
    });
    await h.settle();
    let state = await h.store.loadGoal(goal.goal.id);
    expect(state?.pullRequests).toEqual([]);

    // Even the tick's own push on that branch does not adopt a PR the App did not open: GitHub
    // refuses a second one for the head, and the branch's PRs are read then.
    const from = h.sandbox.requests().length;
    await playTick(h, issue, { "docs/a.md": "fixed\n" });
    await h.settle();
    const refused = installationRequests(h, from).filter((r) => r.operationId === "pulls/create");
    expect(refused.map((r) => r.status)).toEqual([422]);
    state = await h.store.loadGoal(goal.goal.id);
    expect(state?.pullRequests).toEqual([]);
    const pulls = (await openPulls(h)).filter((p) => p.head.ref === branch);
    expect(pulls.map((p) => p.number)).toEqual([theirs.number]);
  }, 120_000);
});
