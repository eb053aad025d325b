import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { o, setup } from "./helpers.ts";

/**
 * Contents answers carry an ETag; `If-None-Match` with it answers 304 and no body, as GitHub
 * does ("Use conditional requests if appropriate", REST best practices). A changed file, or
 * another media type, is a new representation: 200 with its own ETag.
 */
describe("sandbox: conditional contents reads", () => {
  let t: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    t = await setup();
  });
  afterAll(() => t.sandbox.stop());

  const read = (headers: Record<string, string> = {}, format?: "raw") =>
    t.bot.rest.repos.getContent({
      ...o,
      path: ".github/loopx.yml",
      headers,
      ...(format ? { mediaType: { format } } : {}),
    });

  const status = (p: Promise<unknown>) =>
    p.then(
      () => 200,
      (e: { status: number }) => e.status,
    );

  it("answers 304 to the ETag it gave, 200 to a stale or foreign one", async () => {
    const first = await read({}, "raw");
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
    expect(await status(read({ "if-none-match": etag }, "raw"))).toBe(304);
    expect(await status(read({ "if-none-match": `W/${etag}` }, "raw"))).toBe(304);
    expect(await status(read({ "if-none-match": '"not-it"' }, "raw"))).toBe(200);
    // The JSON representation is another one: the raw ETag does not match it.
    const json = await read({ "if-none-match": etag });
    expect(json.status).toBe(200);
    expect(json.headers.etag).not.toBe(etag);
    const log = t.sandbox.requests().filter((r) => r.operationId === "repos/get-content");
    expect(log.filter((r) => r.status === 304)).toHaveLength(2);
  });

  it("a changed file answers 200 with its new content and a new ETag", async () => {
    const before = await read({}, "raw");
    t.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "harness: codex\n" });
    const after = await read({ "if-none-match": String(before.headers.etag) }, "raw");
    expect(after.status).toBe(200);
    expect(after.data).toBe("harness: codex\n");
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it("the repository answers 304 while unchanged, 200 with a new ETag after a push", async () => {
    const first = await t.bot.rest.repos.get(o);
    const etag = String(first.headers.etag);
    const again = t.bot.rest.repos.get({ ...o, headers: { "if-none-match": etag } });
    expect(await status(again)).toBe(304);
    await t.sandbox.clock.advance(60_000);
    t.sandbox.push("acme/widgets", "main", { "README.md": "# moved on\n" });
    const after = await t.bot.rest.repos.get({ ...o, headers: { "if-none-match": etag } });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
  });

  it("a missing file is 404 whatever the validator", async () => {
    const missing = t.bot.rest.repos.getContent({
      ...o,
      path: "nope.yml",
      headers: { "if-none-match": "*" },
    });
    expect(await status(missing)).toBe(404);
  });
});
