import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A project as files: path relative to its root (with `/`) → UTF-8 contents. */
export type Tree = Map<string, string>;

/** Every file under `dir`, keyed by its `/`-separated path relative to `dir`, sorted. */
export function readTree(dir: string): Tree {
  const paths: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) paths.push(path);
      else throw new Error(`${join(dir, path)}: only plain files and folders belong in a task`);
    }
  };
  walk("");
  paths.sort();
  return new Map(paths.map((p) => [p, readFileSync(join(dir, p), "utf8")]));
}

/** `base` with each file of `overlay` written over it (an overlay holds full contents). */
export function applyOverlay(base: Tree, overlay: Tree): Tree {
  const out = new Map(base);
  for (const [path, text] of overlay) out.set(path, text);
  return out;
}
