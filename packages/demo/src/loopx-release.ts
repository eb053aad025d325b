/**
 * LoopX as a repository installs it: the sandbox serves this working tree as `loopx/loopx` at
 * tag `v1` (the action, its bundle, the reusable workflows), and a repository holds the
 * caller workflows exactly as docs/workflows.md shows them. Nothing is mapped by hand: the
 * runner resolves `uses: loopx/loopx/.github/workflows/loopx-tick.yml@v1` and
 * `uses: loopx/loopx@v1` from the hosted repository, as GitHub does.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Sandbox } from "@loopx/sandbox";

const ROOT = resolve(import.meta.dirname, "../../..");
export const LOOPX_REPO = "loopx/loopx";
export const RELEASE_TAG = "v1";

/** What a release of loopx/loopx holds that callers use. */
const RELEASED = [
  "action.yml",
  "action/dist/index.js",
  ".github/workflows/loopx-tick.yml",
  ".github/workflows/loopx-wake.yml",
];

/** Creates the public `loopx/loopx` repository from this tree and tags it; returns the tag's commit. */
export function hostLoopxRelease(sandbox: Sandbox): string {
  const files = Object.fromEntries(
    RELEASED.map((path) => [path, readFileSync(resolve(ROOT, path), "utf8")]),
  );
  sandbox.createRepo(LOOPX_REPO, { private: false, files });
  return sandbox.tag(LOOPX_REPO, RELEASE_TAG);
}

/**
 * The caller workflows of docs/workflows.md, read from the doc: each section that says
 * "Add `.github/workflows/<file>`" and the first YAML block after it.
 */
export function documentedCallers(): Record<string, string> {
  const doc = readFileSync(resolve(ROOT, "docs/workflows.md"), "utf8");
  const callers: Record<string, string> = {};
  const pattern = /Add `(\.github\/workflows\/[\w.-]+\.ya?ml)`[\s\S]*?```yaml\n([\s\S]*?)```/g;
  for (const m of doc.matchAll(pattern)) if (m[1] && m[2]) callers[m[1]] ??= m[2];
  if (!callers[".github/workflows/loopx-tick.yml"] || !callers[".github/workflows/loopx-wake.yml"])
    throw new Error(
      "docs/workflows.md no longer shows the loopx-tick.yml and loopx-wake.yml callers",
    );
  return callers;
}
