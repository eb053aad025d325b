import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectWarning } from "../support/expected-warnings.ts";
import { botComments as commentsOf, openPulls, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: keyed comments (the tick comment on the goal issue, the handoff on the PR) are
 * posted without listing the issue's comments first, and the handoff is edited later by the id
 * GitHub gave it. A POST that GitHub committed but whose answer was lost is retried by the
 * outbox, which then looks for the comment by its key and does not post it twice.
 */
describe("e2e: keyed comments without listing", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "comments: sticky\n" }, "alice");
  });
  afterAll(() => h.close());

  const app = (from: number) =>
    h.sandbox
      .requests()
      .slice(from)
      .filter((r) => r.by?.startsWith("installation:"));
  const lists = (from: number, number: number) =>
    app(from).filter(
      (r) => r.method === "GET" && r.path === `/repos/acme/widgets/issues/${number}/comments`,
    );
  const botComments = (number: number) =>
    commentsOf(h, number).map((c) => ({ ...c, key: c.key ?? "" }));
  const settleAll = async () => {
    await h.sandbox.idle();
    await h.settle();
  };

  let issue = 0;
  let pr = 0;

  it("the first tick posts its comment and the PR's handoff with no list before either", async () => {
    const goal = await h.startGoal("Keyed comments", ["Cache layout", "Document it"]);
    issue = goal.goal.issue.number;
    await h.settle();
    const from = h.sandbox.requests().length;
    await playTick(h, issue, { "src/layout.ts": "export const cache = 1;\n" });
    await settleAll();
    const opened = (await openPulls(h))[0];
    if (!opened) throw new Error("the tick opened no PR");
    pr = opened.number;
    expect(botComments(issue).filter((c) => c.key.startsWith("tick:"))).toHaveLength(1);
    const handoff = botComments(pr).filter((c) => c.key.startsWith("handoff:"));
    expect(handoff).toHaveLength(1);
    expect(lists(from, issue)).toEqual([]);
    expect(lists(from, pr)).toEqual([]);
    // The ids GitHub answered are kept, so later edits go by id.
    const stored = await h.store.getProjection(goal.goal.id, `comment:${handoff[0]?.key}`);
    expect(stored?.githubId).toBe(handoff[0]?.id);
  }, 120_000);

  it("a follow-on tick edits the handoff by its id, unread", async () => {
    const handoff = botComments(pr).find((c) => c.key.startsWith("handoff:"));
    if (!handoff) throw new Error("no handoff comment");
    const from = h.sandbox.requests().length;
    await playTick(h, issue, { "src/layout.ts": "export const cache = 2;\n" });
    await settleAll();
    expect(lists(from, pr)).toEqual([]);
    const edits = app(from).filter(
      (r) => r.method === "PATCH" && r.path === `/repos/acme/widgets/issues/comments/${handoff.id}`,
    );
    expect(edits.length).toBeGreaterThan(0);
    expect(botComments(pr).filter((c) => c.key.startsWith("handoff:"))).toHaveLength(1);
  }, 120_000);

  it("a tick comment whose answer was lost after GitHub committed it is found, not posted again", async () => {
    expectWarning(/will retry: commenting on acme\/widgets#\d+: GitHub answered 502/);
    h.sandbox.faults.route({
      method: "POST",
      route: "issues/create-comment",
      status: 502,
      afterCommit: true,
      times: 1,
    });
    const before = botComments(issue).filter((c) => c.key.startsWith("tick:")).length;
    const from = h.sandbox.requests().length;
    await playTick(h, issue, { "src/layout.ts": "export const cache = 3;\n" });
    await settleAll();
    // GitHub holds the comment; the App heard 502 and will try again.
    expect(botComments(issue).filter((c) => c.key.startsWith("tick:"))).toHaveLength(before + 1);
    expect(lists(from, issue)).toEqual([]);
    await dbOf(h.store).execute(
      sql`UPDATE outbox SET next_attempt_at = now() WHERE done_at IS NULL AND dead_at IS NULL`,
    );
    h.app.outbox.kick();
    await settleAll();
    // The retry looked for it by its key, found it, and wrote nothing more.
    expect(lists(from, issue).length).toBeGreaterThan(0);
    expect(botComments(issue).filter((c) => c.key.startsWith("tick:"))).toHaveLength(before + 1);
    const posts = app(from).filter(
      (r) => r.method === "POST" && r.path === `/repos/acme/widgets/issues/${issue}/comments`,
    );
    expect(posts).toHaveLength(1);
  }, 120_000);
});
