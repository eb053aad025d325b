import { findManagedBlocks } from "./find-managed-block.ts";
import { fencedCode, splitLines, TODO_MARKER } from "./markers.ts";
import { takePathsClause } from "./paths-clause.ts";

/** A task-list item the issue's author wrote: `- [ ] text` (open) or `- [x] text` (ticked). */
export interface TaskItem {
  title: string;
  checked: boolean;
  /** What the item declared it touches (`paths: docs/**, README.md`), when it did. */
  paths?: string[];
  /** Why its `paths:` clause is refused; its title is then the whole text. */
  pathsProblem?: string;
}

// GitHub renders any bullet with `[ ]`/`[x]` as a task, nested ones too.
const TASK = /^\s*[-*+][ \t]+\[([ xX])\][ \t]+(\S.*)$/;

/** Titles are at most 256 characters in the kernel; a longer item keeps its start. */
const TITLE_MAX = 256;

/**
 * The task-list items of the author's own text: never LoopX's checklist (the managed block)
 * nor a line carrying one of its todo markers (pasted from another goal), never inside
 * fenced code. In body order, all of them: whether a goal can start with that many is the
 * caller's to say, out loud.
 */
export function parseTaskList(body: string): TaskItem[] {
  const spans = findManagedBlocks(body);
  const items: TaskItem[] = [];
  let offset = 0;
  const inCode = fencedCode();
  for (const line of splitLines(body)) {
    const at = offset;
    offset += line.text.length + line.eol.length;
    if (spans.some((b) => at >= b.start && at < b.end) || inCode(line.text)) continue;
    const task = TASK.exec(line.text);
    if (task === null || line.text.search(TODO_MARKER) >= 0) continue;
    const text = (task[2] ?? "").trim();
    const clause = takePathsClause(text.split(/\s+/));
    const named = clause.ok && clause.paths.length > 0 ? clause.words.join(" ") : text;
    const title = named.length <= TITLE_MAX ? named : `${named.slice(0, TITLE_MAX - 1)}…`;
    const item: TaskItem = { title, checked: task[1] !== " " };
    if (!clause.ok) item.pathsProblem = clause.message;
    else if (clause.paths.length > 0) item.paths = clause.paths;
    items.push(item);
  }
  return items;
}
