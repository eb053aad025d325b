import { TodoKey } from "@loopx/core";
import { findManagedBlocks } from "./find-managed-block.ts";
import { fencedCode, TODO_MARKER } from "./markers.ts";

/** One checklist item LoopX rendered, as the body now shows it. */
export interface ChecklistItem {
  todo: TodoKey;
  checked: boolean;
}

// GitHub toggles `[ ]` ↔ `[x]` in place and keeps the bullet, so any bullet is accepted.
const CHECKBOX = /^ {0,3}[-*+][ \t]+\[([ xX])\](?:[ \t]|$)/;

/**
 * The checkbox state of every todo item in the managed block. Only the first block counts
 * (spliceManagedBlock converges on one), and only task-list items that carry exactly one
 * todo marker: a marker outside the block, in a line that is not a checkbox, inside fenced
 * code, or next to a second marker is ignored. A todo listed twice counts once (the first),
 * so a pasted duplicate line cannot flip it.
 */
export function parseChecklist(body: string): ChecklistItem[] {
  const block = findManagedBlocks(body)[0];
  if (block === undefined) return [];
  const items: ChecklistItem[] = [];
  const seen = new Set<string>();
  const inCode = fencedCode();
  for (const line of block.inner) {
    if (inCode(line)) continue;
    const box = CHECKBOX.exec(line);
    if (box === null) continue;
    const markers = [...line.matchAll(TODO_MARKER)].map((m) => m[1] ?? "");
    if (markers.length !== 1) continue;
    const key = TodoKey.safeParse(markers[0]);
    if (!key.success || seen.has(key.data)) continue;
    seen.add(key.data);
    items.push({ todo: key.data, checked: box[1] !== " " });
  }
  return items;
}

/** Todos whose box a person ticked or unticked between two versions of the body. */
export interface ChecklistDiff {
  ticked: TodoKey[];
  unticked: TodoKey[];
}

/**
 * What a body edit means as intake: the todos whose box changed state. Accepts bodies
 * (e.g. `changes.body.from` and the new body) or parsed checklists. An item present on only
 * one side is no tick — adding or removing a line is not a checkbox click, and the block is
 * re-rendered from the state anyway.
 */
export function diffChecklist(
  before: string | readonly ChecklistItem[],
  after: string | readonly ChecklistItem[],
): ChecklistDiff {
  const from = typeof before === "string" ? parseChecklist(before) : before;
  const to = typeof after === "string" ? parseChecklist(after) : after;
  const was = new Map(from.map((i) => [i.todo, i.checked]));
  const diff: ChecklistDiff = { ticked: [], unticked: [] };
  for (const item of to) {
    const prior = was.get(item.todo);
    if (prior === undefined || prior === item.checked) continue;
    (item.checked ? diff.ticked : diff.unticked).push(item.todo);
  }
  return diff;
}
