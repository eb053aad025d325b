/**
 * Three-way merge of two trees grown from one base, as a rebase would do it: a file changed
 * on one side only takes that side; a file changed on both goes through `git merge-file`.
 * This is how the two goals of a "shared-file" pair both land in one repository.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Tree } from "./read-tree.ts";

export interface MergeResult {
  tree: Tree;
  /** Paths both sides changed in overlapping regions (their merged text holds markers). */
  conflicts: string[];
}

export async function mergeTrees(base: Tree, ours: Tree, theirs: Tree): Promise<MergeResult> {
  const paths = [...new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])].sort();
  const tree: Tree = new Map();
  const conflicts: string[] = [];
  for (const path of paths) {
    const b = base.get(path);
    const o = ours.get(path);
    const t = theirs.get(path);
    if (o === undefined || t === undefined) {
      // Overlays only add or rewrite files, so a side that lacks a file never deleted it.
      const only = o ?? t;
      if (only !== undefined) tree.set(path, only);
      continue;
    }
    if (o === t || t === b) tree.set(path, o);
    else if (o === b) tree.set(path, t);
    else {
      const merged = await mergeFile(b ?? "", o, t);
      tree.set(path, merged.text);
      if (merged.conflicted) conflicts.push(path);
    }
  }
  return { tree, conflicts };
}

async function mergeFile(
  base: string,
  ours: string,
  theirs: string,
): Promise<{ text: string; conflicted: boolean }> {
  const dir = await mkdtemp(join(tmpdir(), "loopx-bench-merge-"));
  try {
    const files = { ours: join(dir, "ours"), base: join(dir, "base"), theirs: join(dir, "theirs") };
    await writeFile(files.ours, ours);
    await writeFile(files.base, base);
    await writeFile(files.theirs, theirs);
    return await new Promise((resolve, reject) => {
      execFile(
        "git",
        ["merge-file", "-p", files.ours, files.base, files.theirs],
        (error, stdout, stderr) => {
          // Exit status: 0 clean, 1..127 the number of conflicts, anything else a failure.
          const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
          if (code < 0 || code > 127) {
            reject(new Error(`git merge-file failed (is git installed?): ${stderr || error}`));
          } else resolve({ text: stdout, conflicted: code > 0 });
        },
      );
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
