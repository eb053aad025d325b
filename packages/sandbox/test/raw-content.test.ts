import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { o, setup } from "./helpers.ts";

/** `Accept: application/vnd.github.raw` on contents answers the file itself (Probot's config loader). */
describe("sandbox: raw file contents", () => {
  let t: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    t = await setup();
  });
  afterAll(() => t.sandbox.stop());

  it("answers the bytes with GitHub's raw media type; JSON otherwise", async () => {
    const raw = await t.bot.rest.repos.getContent({
      ...o,
      path: ".github/loopx.yml",
      mediaType: { format: "raw" },
    });
    expect(raw.data).toBe("harness: shell\n");
    expect(String(raw.headers["content-type"])).toContain("application/vnd.github.raw");
    const json = await t.bot.rest.repos.getContent({ ...o, path: ".github/loopx.yml" });
    expect(json.data).toMatchObject({ type: "file", encoding: "base64" });
  });
});
