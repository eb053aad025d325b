import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcilePulls } from "../../app/src/pulls/monitor-pull.ts";
import { openPulls, personClient, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const o = { owner: "acme", repo: "widgets" } as const;

/**
 * Scenario: someone forks the repository and opens a PR from a branch named exactly like the
 * goal's todo branch (`loopx/<issue>-T1`). It is not the goal's: not linked, not commented
 * on, not monitored, and the tick's own PR opens beside it. Only `/loopx link` by a writer
 * attaches it; a reader's link is refused.
 */
describe("e2e: a fork PR named like a LoopX branch", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("is never linked by its name; a writer's /loopx link attaches it", async () => {
    h.sandbox.ci.rule = () => "failure";
    const repo = h.sandbox.store.repo(h.repo.id);
    repo.collaborators.set(h.sandbox.createUser("mallory").id, "read");
    const goal = await h.startGoal("Speed up rendering", ["Cache layout"]);
    const issue = goal.goal.issue.number;
    const branch = `loopx/${issue}-T1`;

    const mallory = personClient(h, "mallory");
    const fork = (await mallory.rest.repos.createFork(o)).data;
    h.sandbox.push(fork.full_name, branch, { "src/evil.ts": "1\n" }, "mallory");
    const forked = (
      await mallory.rest.pulls.create({
        ...o,
        title: "Cache layout",
        head: `mallory:${branch}`,
        base: "main",
        body: `Fixes #${issue}`,
      })
    ).data;
    h.sandbox.push(fork.full_name, branch, { "src/evil.ts": "2\n" }, "mallory");
    await h.sandbox.idle();
    await h.settle();

    // The tick's own work opens the App's PR from acme's branch of the same name.
    const tick = await playTick(h, issue, { "src/layout.ts": "1\n" }, { complete: true });
    await h.sandbox.idle();
    await h.settle();
    const own = (await openPulls(h)).find(
      (p) => p.head.ref === branch && p.head.repo?.full_name === "acme/widgets",
    );
    if (!own) throw new Error("the App opened no PR of its own");
    expect(own.number).not.toBe(forked.number);
    expect(tick.branch).toBe(branch);
    await reconcilePulls(h.app.deps, [goal.goal.id]);
    await h.settle();

    let state = await h.store.loadGoal(goal.goal.id);
    expect(state?.pullRequests.map((p) => p.number)).toEqual([own.number]);
    // Its failing CI made a repair todo for the App's PR only.
    expect(state?.todos.filter((t) => t.kind === "repair").map((t) => t.title)).toEqual([
      `Fix failing checks on #${own.number}: ci`,
    ]);
    // Not a word from the App on it, and its body is as mallory wrote it.
    const comments = (await mallory.rest.issues.listComments({ ...o, issue_number: forked.number }))
      .data;
    expect(comments.map((c) => c.user?.login)).toEqual([]);
    const body = (await mallory.rest.pulls.get({ ...o, pull_number: forked.number })).data.body;
    expect(body).toBe(`Fixes #${issue}`);
    const requested = (
      await mallory.rest.pulls.listRequestedReviewers({ ...o, pull_number: forked.number })
    ).data.users.map((u) => u.login);
    expect(requested).toEqual([]);

    // A reader cannot link it; a writer can.
    const link = (who: string) =>
      personClient(h, who).rest.issues.createComment({
        ...o,
        issue_number: issue,
        body: `/loopx link #${forked.number}`,
      });
    await link("mallory");
    await h.settle();
    state = await h.store.loadGoal(goal.goal.id);
    expect(state?.pullRequests.map((p) => p.number)).toEqual([own.number]);
    await link("alice");
    await h.settle();
    state = await h.store.loadGoal(goal.goal.id);
    expect(state?.pullRequests.find((p) => p.number === forked.number)).toMatchObject({
      headRef: branch,
      state: "open",
      todo: null,
    });

    // Linked, it is monitored like any PR. Check runs never list a fork's PR, so the App
    // finds it by its head: the next push's red CI becomes the goal's to repair, no backstop.
    // CI holds its verdict until the App has read the push (checks pending then).
    let release = () => {};
    const verdict = new Promise<void>((resolve) => {
      release = resolve;
    });
    h.sandbox.ci.rule = () => verdict.then(() => "failure" as const);
    const third = h.sandbox.push(fork.full_name, branch, { "src/evil.ts": "3\n" }, "mallory");
    await h.sandbox.settle();
    await h.settle();
    state = await h.store.loadGoal(goal.goal.id);
    expect(state?.pullRequests.find((p) => p.number === forked.number)?.headSha).toBe(third);
    expect(state?.todos.filter((t) => t.kind === "repair")).toHaveLength(1);
    release();
    await h.sandbox.idle();
    await h.settle();
    state = await h.store.loadGoal(goal.goal.id);
    const linked = state?.pullRequests.find((p) => p.number === forked.number);
    expect(linked?.headSha).toBe(third);
    expect(linked?.monitor.checks.map((c) => [c.name, c.status])).toEqual([["ci", "failure"]]);
    expect(state?.todos.filter((t) => t.kind === "repair").map((t) => t.title)).toEqual([
      `Fix failing checks on #${own.number}: ci`,
      `Fix failing checks on #${forked.number}: ci`,
    ]);
  }, 120_000);
});
