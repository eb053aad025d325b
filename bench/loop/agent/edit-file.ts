/**
 * How the agent changes a file: to the content its skill says finishes the work, unless the
 * file holds changes it did not make (another goal's, merged to main), which it keeps, as a
 * person editing the file would: a three-way merge of its change (`from` → `to`) into what
 * the file holds. Its own leftovers (a half-written file, a line it botched or repeated, its
 * CI-fix comments) are its to overwrite, as before.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Lines the agent itself adds or botches a file with (run-agent.ts, slice-actions.ts). */
const OWN_PREFIXES = [/^throw new Error\("flaky"\);\n/, /^throw new Error\("stuck: [^\n]*\n/];
const OWN_LINES = /^(\/\/|#|<!--) fix: [^\n]*\n?/gm;

/**
 * The content to write: `to`, or `to`'s change merged into `current` when `current` holds
 * someone else's work on top of `from`. `own` is every content the skill has for the path.
 */
export function editedContent(
  current: string | null,
  from: string | null,
  to: string,
  own: ReadonlySet<string>,
): string {
  if (current === null || from === null || current === from || current === to) return to;
  if (isOwn(current, own)) return to;
  return mergeFile(current, from, to) ?? to;
}

function isOwn(current: string, own: ReadonlySet<string>): boolean {
  let text = current.replace(OWN_LINES, "");
  for (const prefix of OWN_PREFIXES) text = text.replace(prefix, "");
  if (own.has(text)) return true;
  // A slice killed while writing leaves the start of a file it was writing.
  return [...own].some((s) => text.length < s.length && s.startsWith(text));
}

/** `git merge-file -p ours base theirs`; null when the two changes overlap. */
function mergeFile(ours: string, base: string, theirs: string): string | null {
  const dir = mkdtempSync(join(tmpdir(), "agent-merge-"));
  try {
    const [o, b, t] = [join(dir, "ours"), join(dir, "base"), join(dir, "theirs")] as const;
    writeFileSync(o, ours);
    writeFileSync(b, base);
    writeFileSync(t, theirs);
    try {
      return execFileSync("git", ["merge-file", "-p", o, b, t], { encoding: "utf8" });
    } catch (error) {
      // Exit status 1..127 counts the conflicts; anything else is git failing.
      const status =
        error instanceof Error && "status" in error && typeof error.status === "number"
          ? error.status
          : -1;
      if (status > 0 && status < 128) return null;
      throw error;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
