import { join } from "node:path";

export interface TreeEntry {
  mode: string;
  type: "blob" | "tree" | "commit";
  sha: string;
  size: number;
  path: string;
}

/** Parses `git ls-tree -z --long` output; names under `dir` come back as full paths. */
export function parseLsTree(out: string, dir: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of out.split("\0")) {
    const m = /^(\d+) (blob|tree|commit) ([0-9a-f]{40})\s+(-|\d+)\t(.*)$/s.exec(record);
    if (!m) continue;
    const name = m[5] ?? "";
    entries.push({
      mode: m[1] ?? "",
      type: m[2] === "tree" ? "tree" : m[2] === "commit" ? "commit" : "blob",
      sha: m[3] ?? "",
      size: m[4] === "-" ? 0 : Number(m[4]),
      path: dir === "" || name.startsWith(`${dir}/`) ? name : join(dir, name),
    });
  }
  return entries;
}
