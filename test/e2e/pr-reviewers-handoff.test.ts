import { readKey } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPulls, personClient, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: reviewers and the reviewer handoff on a PR LoopX opens. No code owner covers the
 * change → LoopX requests the goal's owners; a code owner covers it → GitHub's request stands
 * alone. The handoff is the LoopX-managed block of the PR's body (no comment), rewritten in
 * place when the next tick pushes; a person's own text in the body stays.
 */
describe("e2e: reviewer routing and the sticky reviewer handoff", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  const handoffComments = (pr: number) =>
    h.sandbox
      .issue("acme/widgets", pr)
      .comments_list.filter((c) => (readKey(String(c.body ?? "")) ?? "").startsWith("handoff:"));
  const prBody = async (pr: number) =>
    (
      await personClient(h, "alice").rest.pulls.get({
        owner: "acme",
        repo: "widgets",
        pull_number: pr,
      })
    ).data.body ?? "";
  const blocks = (body: string) => body.split("LoopX reviewer handoff").length - 1;

  it("asks the goal's owners when no code owner covers the change; one handoff, updated", async () => {
    const goal = await h.startGoal("Speed up rendering", ["Cache layout"]);
    expect(goal.goal.owners).toContain("alice");
    const first = await playTick(h, goal.goal.issue.number, { "src/a.ts": "1\n" });
    await h.settle();
    const pr = (await openPulls(h)).find((p) => p.head.ref === first.branch);
    if (!pr) throw new Error("no PR was opened");
    expect(pr.requested_reviewers?.map((u) => u.login)).toEqual(["alice"]);

    expect(handoffComments(pr.number)).toEqual([]);
    let body = await prBody(pr.number);
    expect(blocks(body)).toBe(1);
    expect(body).toContain(`Refs #${goal.goal.issue.number}`);
    expect(body).toContain(`LoopX reviewer handoff · goal #${goal.goal.issue.number}`);
    expect(body).toContain("T1 Cache layout");
    expect(body).toContain("Worked on T1.");
    expect(body).toContain(`\`${first.sha.slice(0, 12)}\``);

    // A person's own words in the body are theirs: the next write keeps them.
    await personClient(h, "alice").rest.pulls.update({
      owner: "acme",
      repo: "widgets",
      pull_number: pr.number,
      body: `Alice: please look at the cache first.\n\n${body}`,
    });
    await h.settle();
    const second = await playTick(h, goal.goal.issue.number, { "src/a.ts": "2\n" });
    await h.settle();
    expect(handoffComments(pr.number)).toEqual([]);
    body = await prBody(pr.number);
    expect(blocks(body)).toBe(1);
    expect(body.startsWith("Alice: please look at the cache first.")).toBe(true);
    expect(body).toContain(`\`${second.sha.slice(0, 12)}\``);
    expect(body).not.toContain(`\`${first.sha.slice(0, 12)}\``);
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
