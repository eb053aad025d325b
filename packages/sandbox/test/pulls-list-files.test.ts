import { createHash } from "node:crypto";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { afterEach, describe, expect, it } from "vitest";
import { errorsText, fixture, o, setup } from "./helpers.ts";

let t: Awaited<ReturnType<typeof setup>> | undefined;
afterEach(async () => {
  await t?.sandbox.stop();
  t = undefined;
});

/** The blob id git gives a file's bytes (`git hash-object`), worked out here, not read back. */
const blobSha = (text: string) =>
  createHash("sha1")
    .update(`blob ${Buffer.byteLength(text)}\0`)
    .update(text)
    .digest("hex");

const guide = (changed: string) =>
  ["# Guide", "one", "two", "three", "four", changed, "six", "seven", "eight", "nine", ""].join(
    "\n",
  );

describe("pulls/list-files (GET /repos/{owner}/{repo}/pulls/{pull_number}/files)", () => {
  it("lists the PR's three-dot diff per file: statuses, counts, renames, blobs, patches, pages", async () => {
    t = await setup();
    const { bot, sandbox } = t;
    sandbox.push("acme/widgets", "main", {
      "docs/keep.md": "a\nb\nc\n",
      "old.txt": "x\ny\n",
      "docs/guide.md": guide("five"),
    });
    const binary = "PNG\0\u0001\u0002\0end";
    const head = sandbox.push("acme/widgets", "feat", {
      "new.txt": "1\n2\n3\n",
      "docs/keep.md": "a\nB\nc\nd\n",
      "old.txt": null,
      "docs/guide.md": null,
      "handbook/guide.md": guide("FIVE"),
      "logo.bin": binary,
    });
    const pr = (await bot.rest.pulls.create({ ...o, title: "files", head: "feat", base: "main" }))
      .data;
    // The base moving on afterwards is no part of the PR's diff.
    sandbox.push("acme/widgets", "main", { "main-only.txt": "later\n" });

    // What the push above changed, counted by hand.
    const expected = {
      "new.txt": { status: "added", additions: 3, deletions: 0, sha: blobSha("1\n2\n3\n") },
      "docs/keep.md": {
        status: "modified",
        additions: 2,
        deletions: 1,
        sha: blobSha("a\nB\nc\nd\n"),
      },
      "old.txt": { status: "removed", additions: 0, deletions: 2, sha: blobSha("x\ny\n") },
      "handbook/guide.md": {
        status: "renamed",
        additions: 1,
        deletions: 1,
        sha: blobSha(guide("FIVE")),
        previous_filename: "docs/guide.md",
      },
      "logo.bin": { status: "added", additions: 0, deletions: 0, sha: blobSha(binary) },
    };
    const totals = { changed_files: 5, additions: 6, deletions: 4 };

    const { html_url: web, url: api } = (await bot.rest.repos.get(o)).data;
    const res = await bot.rest.pulls.listFiles({ ...o, pull_number: pr.number });
    expect(res.headers.link).toBeUndefined();
    const files = res.data;
    expect(files.map((f) => f.filename).sort()).toEqual(Object.keys(expected).sort());
    for (const f of files) {
      const want = expected[f.filename as keyof typeof expected];
      expect(f, f.filename).toMatchObject({ ...want, changes: want.additions + want.deletions });
      if (!("previous_filename" in want)) expect(f.previous_filename).toBeUndefined();
      const path = encodeURIComponent(f.filename);
      expect(f.blob_url).toBe(`${web}/blob/${head}/${path}`);
      expect(f.raw_url).toBe(`${web}/raw/${head}/${path}`);
      expect(f.contents_url).toBe(`${api}/contents/${path}?ref=${head}`);
    }
    const byName = new Map(files.map((f) => [f.filename, f]));
    expect(byName.get("handbook/guide.md")?.blob_url).toContain("/handbook%2Fguide.md");
    expect(byName.get("new.txt")?.patch).toBe("@@ -0,0 +1,3 @@\n+1\n+2\n+3");
    expect(byName.get("docs/keep.md")?.patch).toBe("@@ -1,3 +1,4 @@\n a\n-b\n+B\n c\n+d");
    expect(byName.get("old.txt")?.patch).toBe("@@ -1,2 +0,0 @@\n-x\n-y");
    expect(byName.get("handbook/guide.md")?.patch).toContain("\n-five\n+FIVE\n");
    expect(byName.get("logo.bin")?.patch).toBeUndefined();

    // The same diff as the PR's own counts.
    const got = (await bot.rest.pulls.get({ ...o, pull_number: pr.number })).data;
    expect({
      changed_files: got.changed_files,
      additions: got.additions,
      deletions: got.deletions,
    }).toEqual(totals);
    expect(files.length).toBe(totals.changed_files);
    expect(files.reduce((n, f) => n + f.additions, 0)).toBe(totals.additions);
    expect(files.reduce((n, f) => n + f.deletions, 0)).toBe(totals.deletions);

    // Every entry has the shape of GitHub's "Diff Entry" schema.
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(fixture, "openapi");
    const validate = ajv.getSchema("openapi#/$defs/diff-entry");
    if (!validate) throw new Error("no diff-entry schema in the fixture");
    for (const f of files) expect(validate(f), `${f.filename}: ${errorsText(validate)}`).toBe(true);

    // Pages: per_page=2 of 5 files is 3 pages, with GitHub's Link header.
    const first = await bot.rest.pulls.listFiles({ ...o, pull_number: pr.number, per_page: 2 });
    expect(first.data.map((f) => f.filename)).toEqual(files.slice(0, 2).map((f) => f.filename));
    expect(first.headers.link).toContain('rel="next"');
    expect(first.headers.link).toContain('rel="last"');
    expect(first.headers.link).toMatch(/[?&]page=3[^>]*>; rel="last"/);
    const last = await bot.rest.pulls.listFiles({
      ...o,
      pull_number: pr.number,
      per_page: 2,
      page: 3,
    });
    expect(last.data.map((f) => f.filename)).toEqual([files[4]?.filename]);
    expect(last.headers.link).toContain('rel="prev"');
    expect(last.headers.link).not.toContain('rel="next"');
    const all = await bot.paginate(bot.rest.pulls.listFiles, {
      ...o,
      pull_number: pr.number,
      per_page: 2,
    });
    expect(all.map((f) => f.filename)).toEqual(files.map((f) => f.filename));

    // A PR that does not exist.
    const missing = await bot.rest.pulls.listFiles({ ...o, pull_number: pr.number + 100 }).then(
      () => 200,
      (e: { status?: number }) => e.status,
    );
    expect(missing).toBe(404);
  });
});
