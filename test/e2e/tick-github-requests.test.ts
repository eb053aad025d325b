import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  botComments as commentsOf,
  openPulls,
  personClient,
  playTick,
} from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: productive ticks with CI on the sandbox, counted from its request log. The status
 * comment is edited by the id the App stored, with no read before it, and only when its text
 * changed; `.github/loopx.yml` is read conditionally (304 while unchanged), and a changed file
 * takes effect at once; a status comment a person deleted is written anew.
 */
describe("e2e: the GitHub requests of a productive tick", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
    h.sandbox.ci.checks = ["ci", "lint", "unit"];
    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "comments: sticky\n" }, "alice");
  });
  afterAll(() => h.close());

  const app = (from: number) =>
    h.sandbox
      .requests()
      .slice(from)
      .filter((r) => r.by?.startsWith("installation:"));
  const configReads = (from: number) =>
    app(from).filter((r) => r.path === "/repos/acme/widgets/contents/.github%2Floopx.yml");
  const botComments = (issue: number) => commentsOf(h, issue);

  let issue = 0;

  it("edits the status comment by its id, unread, only when it changed; config answers 304", async () => {
    const goal = await h.startGoal("Speed up rendering", ["Cache layout", "Document it"]);
    issue = goal.goal.issue.number;
    await h.settle();
    const status = botComments(issue).find((c) => c.key === "status");
    if (!status) throw new Error("no status comment after the start");
    const from = h.sandbox.requests().length;

    await playTick(h, issue, { "src/layout.ts": "export const cache = 1;\n" });
    await h.sandbox.idle();
    await h.settle();

    const made = app(from);
    expect(made.filter((r) => r.operationId === "issues/get-comment")).toEqual([]);
    const edits = made.filter(
      (r) => r.operationId === "issues/update-comment" && r.path.endsWith(`/${status.id}`),
    );
    expect(edits.length).toBeGreaterThan(0);
    // No edit repeats the one before it: an unchanged status is not written again.
    const bodies = edits.map((r) => JSON.stringify(r.body));
    for (let i = 1; i < bodies.length; i++) expect(bodies[i]).not.toBe(bodies[i - 1]);
    // The last edit is what the comment shows: the PR the tick opened.
    const pr = (await openPulls(h))[0];
    if (!pr) throw new Error("the tick opened no PR");
    const shown = botComments(issue).find((c) => c.key === "status");
    expect(shown?.id).toBe(status.id);
    expect(shown?.body).toContain(`#${pr.number} for T1 · open`);
    // loopx.yml did not change: every read was answered 304 from the App's copy.
    const reads = configReads(from);
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.map((r) => r.status)).toEqual(reads.map(() => 304));
    // `comments: sticky` came through the cache: the tick got its comment.
    expect(botComments(issue).filter((c) => c.key?.startsWith("tick:"))).toHaveLength(1);
  }, 120_000);

  it("a changed loopx.yml is read anew, never served stale from the cache", async () => {
    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "comments: quiet\n" }, "alice");
    await h.settle();
    const from = h.sandbox.requests().length;
    await playTick(h, issue, { "docs/layout.md": "# Layout cache\n" });
    await h.sandbox.idle();
    await h.settle();
    const reads = configReads(from);
    expect(reads.map((r) => r.status)).toContain(200);
    // `comments: quiet` took effect in this very tick: no second tick comment.
    expect(botComments(issue).filter((c) => c.key?.startsWith("tick:"))).toHaveLength(1);
  }, 120_000);

  it("new work on LoopX's own open PR lists no pull requests and reads no issue body", async () => {
    const pr = (await openPulls(h))[0];
    if (!pr) throw new Error("no open PR");
    const from = h.sandbox.requests().length;
    const played = await playTick(h, issue, { "src/layout.ts": "export const cache = 3;\n" });
    await h.sandbox.idle();
    await h.settle();
    expect(played.branch).toBe(pr.head.ref);
    const made = app(from);
    expect(made.filter((r) => r.operationId === "pulls/list")).toEqual([]);
    expect(made.filter((r) => r.operationId === "issues/get")).toEqual([]);
    // The PR follows the new head all the same.
    expect((await openPulls(h)).map((p) => [p.number, p.head.sha])).toEqual([
      [pr.number, played.sha],
    ]);
  }, 120_000);

  it("a status comment a person deleted is written anew, and the new id is kept", async () => {
    const old = botComments(issue).find((c) => c.key === "status");
    if (!old) throw new Error("no status comment");
    await personClient(h, "alice").rest.issues.deleteComment({
      owner: "acme",
      repo: "widgets",
      comment_id: old.id,
    });
    const goal = await h.store.findGoalByIssue(h.repo.id, issue);
    if (!goal) throw new Error("no goal");
    await playTick(h, issue, { "docs/layout.md": "# Layout cache, v2\n" });
    await h.sandbox.idle();
    await h.settle();
    const now = botComments(issue).filter((c) => c.key === "status");
    expect(now).toHaveLength(1);
    expect(now[0]?.id).not.toBe(old.id);
    expect((await h.store.getProjection(goal.goal.id, "status"))?.githubId).toBe(now[0]?.id);
  }, 120_000);
});
