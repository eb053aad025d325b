import type { Todo } from "./schemas/todo.ts";

/**
 * A title as the duplicate rule compares it: Unicode-compatible forms folded, case and runs
 * of whitespace ignored, trailing punctuation dropped ("List the gears." is "list the gears").
 */
export function normalizeTitle(title: string): string {
  return title
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\s+/gu, " ")
    .trim()
    .replace(/[\s.!?…:;,]+$/u, "");
}

const isOpen = (t: Todo) => t.status !== "done" && t.status !== "dropped";

/**
 * The proposals that are new: a proposal whose normalized title is already an open todo's,
 * or an earlier proposal's in the same result, is the same todo and adds nothing. Retries and
 * repeated plans therefore add none; a finished todo's title may be proposed again.
 */
export function newProposals<P extends { title: string }>(
  todos: readonly Todo[],
  proposals: readonly P[],
): P[] {
  const seen = new Set(todos.filter(isOpen).map((t) => normalizeTitle(t.title)));
  const fresh: P[] = [];
  for (const p of proposals) {
    const key = normalizeTitle(p.title);
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    fresh.push(p);
  }
  return fresh;
}

/**
 * The open todo a name means, by key or by title: what a proposal's `after` builds on
 * (earlier proposals of the same result are open todos by then) or a successor that already
 * exists. Null when it names none: a finished todo holds nothing back, and a proposal can
 * only build on what exists before it, so no cycle can form. Only open todos count, so a
 * goal's finished history (loaded only in part) never changes the answer.
 */
export function openTodoNamed(todos: readonly Todo[], name: string): Todo | null {
  const title = normalizeTitle(name);
  return (
    todos.find((t) => isOpen(t) && (t.key === name || normalizeTitle(t.title) === title)) ?? null
  );
}
