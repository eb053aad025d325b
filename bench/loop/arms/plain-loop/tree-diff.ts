/** What a job pushes: the files the agent changed in its checkout, and the ones it removed. */
import type { Tree } from "../../tasks/load-tasks.ts";

/** Path → new content, or null for a file removed (the sandbox's push deletes it). */
export function treeDiff(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): Record<string, string | null> {
  const files: Record<string, string | null> = {};
  for (const [path, content] of after) if (before.get(path) !== content) files[path] = content;
  for (const path of before.keys()) if (!after.has(path)) files[path] = null;
  return files;
}

/** Whether NOTES.md-style `text` holds a line that is only `marker` (the workflow's grep -E). */
export function hasMarkerLine(text: string | undefined, marker: string): boolean {
  return (text ?? "").split("\n").some((line) => line.trim() === marker);
}

export type { Tree };
