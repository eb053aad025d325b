import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectWarning } from "../support/expected-warnings.ts";
import {
  botComments as commentsOf,
  installationRequests,
  openPulls,
  playTick,
} from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: keyed comments (the tick comment on the goal issue) are posted without listing
 * the issue's comments first; the PR's handoff is no comment but its body, edited in place.
 * A POST that GitHub committed but whose answer was lost is retried by the outbox, which
 * then looks for the comment by its key and does not post it twice.
 */
describe("e2e: keyed comments without listing", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "comments: sticky\n" }, "alice");
  });
  afterAll(() => h.close());

  const app = (from: number) => installationRequests(h, from);
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

  it("the first tick posts its comment with no list, and its PR carries the handoff in its body", async () => {
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
    expect(botComments(pr)).toEqual([]);
    expect(opened.body).toContain("LoopX reviewer handoff");
    expect(lists(from, issue)).toEqual([]);
    expect(lists(from, pr)).toEqual([]);
  }, 120_000);

  it("a follow-on tick rewrites the handoff in the PR's body, and comments nothing there", async () => {
    const from = h.sandbox.requests().length;
    const next = await playTick(h, issue, { "src/layout.ts": "export const cache = 2;\n" });
    await settleAll();
    expect(lists(from, pr)).toEqual([]);
    const edits = app(from).filter(
      (r) => r.method === "PATCH" && r.path === `/repos/acme/widgets/pulls/${pr}`,
    );
    expect(edits.length).toBeGreaterThan(0);
    expect(botComments(pr)).toEqual([]);
    const body = (await openPulls(h)).find((p) => p.number === pr)?.body ?? "";
    expect(body).toContain(`\`${next.sha.slice(0, 12)}\``);
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
