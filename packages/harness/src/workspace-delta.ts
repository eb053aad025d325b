import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { WorkspaceDelta } from "./slice-types.ts";

export interface WorkspaceSnapshot {
  isRepo: boolean;
  head: string | null;
  /** Tree of the whole work tree (tracked + untracked, .gitignore honoured). */
  tree: string | null;
}

const MAX_COMMITS = 100;

/**
 * Records the work tree's state without touching the repository's index: the tree is written
 * through a throwaway index file, so uncommitted and untracked work both count as change.
 */
export async function snapshotWorkspace(workdir: string): Promise<WorkspaceSnapshot> {
  const inside = await git(workdir, ["rev-parse", "--is-inside-work-tree"]);
  if (inside.code !== 0 || inside.out.trim() !== "true") {
    return { isRepo: false, head: null, tree: null };
  }
  const head = await git(workdir, ["rev-parse", "--verify", "--quiet", "HEAD"]);
  const scratch = await mkdtemp(join(tmpdir(), "loopx-index-"));
  try {
    const env = { GIT_INDEX_FILE: join(scratch, "index") };
    const add = await git(workdir, ["add", "--all", "--", "."], env);
    const tree = add.code === 0 ? await git(workdir, ["write-tree"], env) : null;
    return {
      isRepo: true,
      head: head.code === 0 ? head.out.trim() : null,
      tree: tree && tree.code === 0 ? tree.out.trim() : null,
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** What changed between a snapshot and now: new commits and a different work tree. */
export async function workspaceDelta(
  workdir: string,
  before: WorkspaceSnapshot,
): Promise<WorkspaceDelta> {
  if (!before.isRepo) return { known: false, changed: false, commits: [], changedFiles: [] };
  const after = await snapshotWorkspace(workdir);
  const commits: WorkspaceDelta["commits"] = [];
  if (after.head && after.head !== before.head) {
    const range = before.head ? [`${before.head}..${after.head}`] : [after.head];
    const log = await git(workdir, [
      "log",
      `--max-count=${MAX_COMMITS}`,
      // Each commit opens with a record separator, so its --shortstat line stays with it.
      "--format=%x1e%H%x00%s",
      "--shortstat",
      ...range,
    ]);
    for (const record of log.out.split("\x1e")) {
      const [head = "", ...rest] = record.split("\n");
      const [sha, message] = head.split("\0");
      if (sha && message !== undefined) {
        commits.push({
          sha,
          message: message.slice(0, 1000),
          diffstat: shortstat(rest.join("\n")),
        });
      }
    }
  }
  let changedFiles: string[] = [];
  if (before.tree && after.tree && before.tree !== after.tree) {
    const diff = await git(workdir, ["diff", "--name-only", before.tree, after.tree]);
    changedFiles = diff.out.split("\n").filter((l) => l !== "");
  }
  const treeChanged = before.tree !== after.tree;
  return {
    known: before.tree !== null && after.tree !== null,
    changed: treeChanged || commits.length > 0,
    commits,
    changedFiles: changedFiles.slice(0, 200),
  };
}

function git(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      "git",
      args,
      { cwd, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        resolve({ code, out: stdout });
      },
    );
  });
}

/** ` 2 files changed, 10 insertions(+), 2 deletions(-)`; git leaves out a count that is zero. */
export function shortstat(text: string): WorkspaceDelta["commits"][number]["diffstat"] {
  const files = /(\d+) files? changed/.exec(text);
  if (!files) return null;
  const count = (re: RegExp) => Number(re.exec(text)?.[1] ?? 0);
  return {
    files: Number(files[1]),
    insertions: count(/(\d+) insertions?\(\+\)/),
    deletions: count(/(\d+) deletions?\(-\)/),
  };
}
