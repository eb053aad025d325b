import { readKey } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPulls, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: reviewers and the reviewer handoff on a PR LoopX opens. No code owner covers the
 * change → LoopX requests the goal's owners; a code owner covers it → GitHub's request stands
 * alone. One sticky handoff comment per PR, rewritten when the next tick pushes.
 */
describe("e2e: reviewer routing and the sticky reviewer handoff", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  const handoffs = (pr: number) =>
    h.sandbox
      .issue("acme/widgets", pr)
      .comments_list.filter((c) => (readKey(String(c.body ?? "")) ?? "").startsWith("handoff:"));

  it("asks the goal's owners when no code owner covers the change; one handoff, updated", async () => {
    const goal = await h.startGoal("Speed up rendering", ["Cache layout"]);
    expect(goal.goal.owners).toContain("alice");
    const first = await playTick(h, goal.goal.issue.number, { "src/a.ts": "1\n" });
    await h.settle();
    const pr = (await openPulls(h)).find((p) => p.head.ref === first.branch);
    if (!pr) throw new Error("no PR was opened");
    expect(pr.requested_reviewers?.map((u) => u.login)).toEqual(["alice"]);

    let comments = handoffs(pr.number);
    expect(comments).toHaveLength(1);
    let body = String(comments[0]?.body);
    expect(body).toContain(`LoopX reviewer handoff · goal #${goal.goal.issue.number}`);
    expect(body).toContain("T1 Cache layout");
    expect(body).toContain("Worked on T1.");
    expect(body).toContain(`\`${first.sha.slice(0, 12)}\``);

    const second = await playTick(h, goal.goal.issue.number, { "src/a.ts": "2\n" });
    await h.settle();
    comments = handoffs(pr.number);
    expect(comments).toHaveLength(1);
    body = String(comments[0]?.body);
    expect(body).toContain(`\`${second.sha.slice(0, 12)}\``);
  }, 120_000);

  it("leaves reviewing to the code owner GitHub requested", async () => {
    const repo = h.sandbox.store.repo(h.repo.id);
    repo.collaborators.set(h.sandbox.createUser("bob").id, "write");
    h.sandbox.push(h.repo.fullName, "main", { ".github/CODEOWNERS": "* @bob\n" }, "alice");
    const goal = await h.startGoal("Tidy the docs", ["Fix typos"]);
    const tick = await playTick(h, goal.goal.issue.number, { "docs/a.md": "fixed\n" });
    await h.settle();
    const pr = (await openPulls(h)).find((p) => p.head.ref === tick.branch);
    if (!pr) throw new Error("no PR was opened");
    expect(pr.requested_reviewers?.map((u) => u.login)).toEqual(["bob"]);
    expect(
      h.sandbox
        .requests()
        .some(
          (r) =>
            r.operationId === "pulls/request-reviewers" &&
            r.path.endsWith(`/${pr.number}/requested_reviewers`),
        ),
    ).toBe(false);
  }, 120_000);
});
