/**
 * A change as a patch, and a patch applied, with git itself: what the report job hands a
 * person (`git format-patch`) and what that person does with it (`git apply`, then a push).
 * Both work in a throwaway directory holding only the files the change touches, so neither
 * needs the repository, and neither runs synchronously (the sandbox serves in this process).
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Tree } from "../tasks/read-tree.ts";

const ENV: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "LoopX agent",
  GIT_AUTHOR_EMAIL: "agent@loopx.invalid",
  GIT_COMMITTER_NAME: "LoopX agent",
  GIT_COMMITTER_EMAIL: "agent@loopx.invalid",
  LANG: "C",
};

function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      args,
      { cwd, env: ENV, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`git ${args[0]}: ${stderr || error.message}`)) : resolve(stdout),
    );
  });
}

async function writeFiles(dir: string, files: Iterable<[string, string]>): Promise<void> {
  for (const [path, content] of files) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

/** `git format-patch` of `before` → `after` over `paths` (a removed path is absent from `after`). */
export async function formatPatch(
  before: Tree,
  after: ReadonlyMap<string, string>,
  paths: readonly string[],
  message: string,
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "bench-patch-"));
  try {
    await git(dir, ["init", "--quiet"]);
    const old = paths.flatMap((p): [string, string][] => {
      const c = before.get(p);
      return c === undefined ? [] : [[p, c]];
    });
    await writeFiles(dir, old);
    await git(dir, ["add", "--all"]);
    await git(dir, ["commit", "--quiet", "--allow-empty", "-m", "base"]);
    for (const p of paths) if (!after.has(p)) await rm(join(dir, p), { force: true });
    await writeFiles(
      dir,
      paths.flatMap((p): [string, string][] => {
        const c = after.get(p);
        return c === undefined ? [] : [[p, c]];
      }),
    );
    await git(dir, ["add", "--all"]);
    await git(dir, ["commit", "--quiet", "-m", message]);
    return await git(dir, ["format-patch", "--stdout", "-1", "HEAD"]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `git apply` of `patch` onto `tree`: path → new content, or null for a file it removes.
 * Throws what git said when the patch does not apply.
 */
export async function applyPatch(
  tree: ReadonlyMap<string, string>,
  patch: string,
): Promise<Record<string, string | null>> {
  const paths = [
    ...new Set(
      [...patch.matchAll(/^diff --git a\/(\S+) b\/(\S+)$/gm)].flatMap((m) => [m[1], m[2]]),
    ),
  ].filter((p): p is string => p !== undefined);
  const dir = await mkdtemp(join(tmpdir(), "bench-apply-"));
  try {
    await writeFiles(
      dir,
      paths.flatMap((p): [string, string][] => {
        const c = tree.get(p);
        return c === undefined ? [] : [[p, c]];
      }),
    );
    await writeFile(join(dir, "slice.patch"), patch);
    await git(dir, ["apply", "slice.patch"]);
    const files: Record<string, string | null> = {};
    for (const p of paths) {
      const now = await readFile(join(dir, p), "utf8").catch(() => null);
      if (now !== (tree.get(p) ?? null)) files[p] = now;
    }
    return files;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
