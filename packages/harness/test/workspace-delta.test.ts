import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OwnRepo } from "../src/own-repo.ts";
import { shortstat, snapshotWorkspace, workspaceDelta } from "../src/workspace-delta.ts";

/** git's well-known empty tree. */
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), "loopx-delta-"));
  dirs.push(dir);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "pipe" });
  git("init", "-q");
  git("config", "user.email", "t@example.com");
  git("config", "user.name", "t");
  writeFileSync(join(dir, "a.txt"), "one\ntwo\n");
  git("add", "a.txt");
  git("commit", "-qm", "first");
  return dir;
}

describe("workspaceDelta", () => {
  it("gives each new commit its subject and git's diffstat", async () => {
    const dir = repo();
    const before = await snapshotWorkspace(dir);
    const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "pipe" });
    writeFileSync(join(dir, "a.txt"), "one\nTWO\nthree\n");
    writeFileSync(join(dir, "b.txt"), "new\n");
    git("add", "a.txt", "b.txt");
    git("commit", "-qm", "Second: change a, add b\n\nbody text");
    writeFileSync(join(dir, "b.txt"), "");
    git("commit", "-qam", "Empty b");
    const delta = await workspaceDelta(dir, before);
    expect(delta.commits.map((c) => [c.message, c.diffstat])).toEqual([
      ["Empty b", { files: 1, insertions: 0, deletions: 1 }],
      ["Second: change a, add b", { files: 2, insertions: 3, deletions: 1 }],
    ]);
  });
});

describe("shortstat", () => {
  it("reads git's line, which leaves out a zero count, and nothing from other text", () => {
    expect(shortstat(" 1 file changed, 2 insertions(+)")).toEqual({
      files: 1,
      insertions: 2,
      deletions: 0,
    });
    expect(shortstat(" 3 files changed, 1 insertion(+), 4 deletions(-)")).toEqual({
      files: 3,
      insertions: 1,
      deletions: 4,
    });
    expect(shortstat("")).toBeNull();
  });
});

describe("OwnRepo.diffstat", () => {
  it("counts the files and lines between the slice's base tree and its own", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loopx-own-"));
    dirs.push(dir);
    const work = join(dir, "work");
    execFileSync("mkdir", [work]);
    const repo = await OwnRepo.create(join(dir, "own.git"));
    writeFileSync(join(work, "a.txt"), "one\ntwo\n");
    const base = await repo.importTree(work, EMPTY_TREE);
    writeFileSync(join(work, "a.txt"), "one\nTWO\nthree\n");
    writeFileSync(join(work, "b.txt"), "new\n");
    const next = await repo.importTree(work, base);
    expect(await repo.diffstat(base, next)).toEqual({ files: 2, insertions: 3, deletions: 1 });
    expect(await repo.diffstat(base, base)).toBeNull();
  });
});
