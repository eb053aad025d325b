import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { o, setup } from "./helpers.ts";

/**
 * Any GET answered 200 carries an ETag of its answer; `If-None-Match` with it answers 304
 * while the answer is unchanged, and 200 with a new ETag once it changed. And a write can be
 * committed with its answer lost (`afterCommit`), so a caller sees an error for a write that
 * happened.
 */
describe("sandbox: conditional reads and writes whose answer is lost", () => {
  let t: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    t = await setup();
  });
  afterAll(() => t.sandbox.stop());

  const status = (p: Promise<unknown>) =>
    p.then(
      () => 200,
      (e: { status: number }) => e.status,
    );
  const branch = (headers: Record<string, string> = {}) =>
    t.bot.rest.repos.getBranch({ ...o, branch: "main", headers });

  it("a branch answers 304 to its ETag while unchanged, 200 with a new one after a push", async () => {
    const first = await branch();
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[0-9a-f]{40}"$/);
    expect(await status(branch({ "if-none-match": etag }))).toBe(304);
    expect(await status(branch({ "if-none-match": etag.slice(2) }))).toBe(304);
    expect(await status(branch({ "if-none-match": 'W/"not-it"' }))).toBe(200);
    t.sandbox.push("acme/widgets", "main", { "notes.md": "moved\n" });
    const moved = await branch({ "if-none-match": etag });
    expect(moved.status).toBe(200);
    expect(moved.headers.etag).not.toBe(etag);
  });

  it("a list answers 304 until an item joins it; a 404 stays a 404", async () => {
    const { data: issue } = await t.bot.rest.issues.create({ ...o, title: "Lists" });
    const list = (headers: Record<string, string> = {}) =>
      t.bot.rest.issues.listComments({ ...o, issue_number: issue.number, headers });
    const etag = String((await list()).headers.etag);
    expect(await status(list({ "if-none-match": etag }))).toBe(304);
    await t.bot.rest.issues.createComment({ ...o, issue_number: issue.number, body: "hi" });
    expect(await status(list({ "if-none-match": etag }))).toBe(200);
    expect(
      await status(
        t.bot.rest.repos.getBranch({ ...o, branch: "nope", headers: { "if-none-match": "*" } }),
      ),
    ).toBe(404);
  });

  it("afterCommit: the comment is created, the caller gets the error", async () => {
    const { data: issue } = await t.bot.rest.issues.create({ ...o, title: "Lost answers" });
    t.sandbox.faults.route({
      route: "issues/create-comment",
      status: 502,
      afterCommit: true,
      times: 1,
    });
    const post = () =>
      t.bot.rest.issues.createComment({ ...o, issue_number: issue.number, body: "once" });
    expect(await status(post())).toBe(502);
    const { data: after } = await t.bot.rest.issues.listComments({
      ...o,
      issue_number: issue.number,
    });
    expect(after.map((c) => c.body)).toEqual(["once"]);
    // The fault was for one request: the next is answered as usual.
    expect(await status(post())).toBe(200);
  });
});
