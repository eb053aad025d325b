/**
 * A work tree held in a Map, for in-process bulk runs: thousands of slices without touching
 * the disk. It refuses the same paths the directory-backed tree does, so the two agree.
 */
import type { WorkTree } from "./agent-types.ts";
import { assertSafePath } from "./tree-paths.ts";

export interface MemoryTree extends WorkTree {
  /** The files as they stand, for the bench to diff and to hand to the next arm. */
  snapshot(): Map<string, string>;
}

export function memoryTree(initial?: Iterable<[string, string]>): MemoryTree {
  const files = new Map<string, string>();
  for (const [path, content] of initial ?? []) {
    assertSafePath(path);
    files.set(path, content);
  }
  return {
    read: (path) => files.get(path) ?? null,
    write: (path, content) => {
      assertSafePath(path);
      files.set(path, content);
    },
    remove: (path) => {
      assertSafePath(path);
      files.delete(path);
    },
    list: () => [...files.keys()].sort(),
    snapshot: () => new Map(files),
  };
}
