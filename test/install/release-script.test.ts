import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";
import { GIT_ENV, git } from "../../packages/sandbox/test/git-support.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const TSX = join(ROOT, "node_modules/.bin/tsx");
const SCRIPT = join(ROOT, "scripts/release.ts");

/**
 * Scenario: the release script against a remote (the sandbox's git server): its dry run sends
 * nothing; it refuses an unready release; a release tags vX.Y.Z and moves v1, and main
 * records the commit for SHA-pinned callers; the next release moves v1 on.
 */
describe("install: scripts/release.ts", () => {
  let sandbox: Sandbox;
  let work: string;
  let remoteTags: () => Promise<Record<string, string>>;

  const run = (args: string[]) =>
    new Promise<{ code: number; out: string }>((done) => {
      execFile(
        TSX,
        [SCRIPT, ...args],
        { cwd: work, env: GIT_ENV, timeout: 60_000 },
        (error, stdout, stderr) => {
          const code = error && typeof error.code === "number" ? error.code : error ? 1 : 0;
          done({ code, out: `${stdout}${stderr}` });
        },
      );
    });
  const commitAll = async (message: string) => {
    await git(work, "add", "-A");
    await git(work, "commit", "--quiet", "-m", message);
    await git(work, "push", "--quiet", "origin", "main");
  };

  const ok = ["--check", "true", "--build", "true"];
  beforeAll(async () => {
    sandbox = await createSandbox();
    sandbox.createRepo("loopx/loopx", { private: false });
    const token = sandbox.createUserToken("loopx");
    work = mkdtempSync(join(tmpdir(), "loopx-release-"));
    mkdirSync(join(work, "app/src/api"), { recursive: true });
    await git(work, "init", "--quiet", "-b", "main");
    await git(work, "remote", "add", "origin", sandbox.cloneUrl("loopx/loopx", token));
    await git(work, "fetch", "--quiet", "origin", "main");
    await git(work, "reset", "--quiet", "--hard", "FETCH_HEAD");
    // What the script reads and writes, as the repository has them.
    mkdirSync(join(work, "action/dist"), { recursive: true });
    writeFileSync(join(work, "action/dist/index.js"), "// bundle\n");
    writeFileSync(
      join(work, "CHANGELOG.md"),
      "# Changelog\n\n## [1.0.0] - 2026-12-01\n\n- First.\n",
    );
    const commits = readFileSync(join(ROOT, "app/src/api/release-commits.ts"), "utf8");
    writeFileSync(join(work, "app/src/api/release-commits.ts"), commits);
    await commitAll("LoopX");
    remoteTags = async () =>
      Object.fromEntries(
        (await git(work, "ls-remote", "--tags", "origin"))
          .split("\n")
          .filter((l) => l && !l.endsWith("^{}"))
          .map((l) => {
            const [sha, ref] = l.split("\t");
            return [ref?.replace("refs/tags/", "") ?? "", sha ?? ""];
          }),
      );
  });
  afterAll(async () => {
    await sandbox?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it("a dry run checks everything and asks the remote, but sends nothing", async () => {
    const result = await run(["1.0.0", "--dry-run", ...ok]);
    expect(result.out).toContain("dry run: would tag");
    expect(result.code).toBe(0);
    expect(await remoteTags()).toEqual({});
  });

  it.each([
    {
      why: "no changelog section",
      args: ["1.1.0", ...ok],
      says: 'CHANGELOG.md has no section "## [1.1.0]"',
    },
    { why: "a bad version", args: ["v1", ...ok], says: "the version must be X.Y.Z" },
    {
      why: "failing checks",
      args: ["1.0.0", "--check", "false", "--build", "true"],
      says: "the checks failed",
    },
    {
      why: "a build that changes action/dist",
      args: ["1.0.0", "--check", "true", "--build", "echo changed >> action/dist/index.js"],
      says: "action/dist is stale",
    },
  ])("refuses $why and tags nothing", async ({ args, says }) => {
    const result = await run(args);
    expect(result.code).toBe(1);
    expect(result.out).toContain(says);
    expect(await remoteTags()).toEqual({});
    await git(work, "checkout", "--quiet", "--", ".");
  });

  it("refuses a working tree with changes", async () => {
    writeFileSync(join(work, "stray.txt"), "x\n");
    const result = await run(["1.0.0", ...ok]);
    expect(result.code).toBe(1);
    expect(result.out).toContain("the working tree has changes");
    expect(await remoteTags()).toEqual({});
    rmSync(join(work, "stray.txt"));
  });

  it("tags v1.0.0 and v1, records the commit on main; the next release moves v1 and keeps v1.0.0", async () => {
    const first = (await git(work, "rev-parse", "HEAD")).trim();
    const result = await run(["1.0.0", ...ok]);
    expect(result.out).toContain("released v1.0.0");
    expect(result.code).toBe(0);
    const peeled = async (tag: string) => (await git(work, "rev-parse", `${tag}^{commit}`)).trim();
    await git(work, "fetch", "--quiet", "--force", "--tags", "origin");
    expect(await peeled("v1.0.0")).toBe(first);
    expect(await peeled("v1")).toBe(first);
    // main is one commit on: the release commit joins the list the App accepts SHA pins for.
    await git(work, "fetch", "--quiet", "origin", "main");
    const recorded = await git(work, "show", "FETCH_HEAD:app/src/api/release-commits.ts");
    expect(recorded).toContain(`"${first}"`);
    expect((await git(work, "rev-parse", "FETCH_HEAD~1")).trim()).toBe(first);

    expect((await run(["1.0.0", ...ok])).out).toContain("v1.0.0 is already released");
    expect((await run(["0.9.0", ...ok])).out).toContain("not newer than the latest release, 1.0.0");

    writeFileSync(
      join(work, "CHANGELOG.md"),
      `${readFileSync(join(work, "CHANGELOG.md"), "utf8")}\n## [1.0.1] - 2026-12-02\n\n- Fix.\n`,
    );
    await commitAll("Changelog for 1.0.1");
    const second = (await git(work, "rev-parse", "HEAD")).trim();
    expect((await run(["1.0.1", ...ok])).code).toBe(0);
    await git(work, "fetch", "--quiet", "--force", "--tags", "origin");
    expect(await peeled("v1")).toBe(second);
    expect(await peeled("v1.0.0")).toBe(first);
    await git(work, "fetch", "--quiet", "origin", "main");
    const both = await git(work, "show", "FETCH_HEAD:app/src/api/release-commits.ts");
    expect(both.indexOf(first)).toBeLessThan(both.indexOf(second));
  });
});
