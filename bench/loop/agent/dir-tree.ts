/**
 * The work tree as a directory on disk, for the CLI: the checkout a harness or a workflow
 * runs the agent in. Paths stay relative and inside it: no '..', nothing under .git, and no
 * write through a symbolic link (a checkout can hold one pointing anywhere).
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import type { WorkTree } from "./agent-types.ts";
import { assertSafePath } from "./tree-paths.ts";

/** Directories the listing skips: git's own, and installed dependencies nobody writes. */
const SKIPPED = new Set([".git", "node_modules"]);

export function dirTree(root: string): WorkTree {
  const base = realpathSync(root);
  const resolve = (path: string): string => {
    assertSafePath(path);
    const full = join(base, path);
    assertNoLink(base, full, path);
    return full;
  };
  return {
    read: (path) => {
      const full = resolve(path);
      try {
        return readFileSync(full, "utf8");
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    write: (path, content) => {
      const full = resolve(path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
    },
    remove: (path) => {
      rmSync(resolve(path), { force: true });
    },
    list: () => walk(base, base).sort(),
  };
}

/** Every existing component of `full` below `base` must be a plain directory or file. */
function assertNoLink(base: string, full: string, path: string): void {
  let at = base;
  for (const part of relative(base, full).split(sep)) {
    at = join(at, part);
    let isLink: boolean;
    try {
      isLink = lstatSync(at).isSymbolicLink();
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    if (isLink) {
      throw new Error(
        `work tree: refused ${JSON.stringify(path)}: ${relative(base, at)} is a symbolic link, which could lead out of the checkout; replace it with a plain file or directory`,
      );
    }
  }
}

function walk(base: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(base, full));
    else if (entry.isFile()) out.push(relative(base, full).split(sep).join("/"));
  }
  return out;
}

function isMissing(err: unknown): boolean {
  return err instanceof Error && "code" in err && (err.code === "ENOENT" || err.code === "ENOTDIR");
}
