/**
 * The agent's view of its skill: which todos exist, in what order it works them, and what
 * files finish one. Titles are compared as NOTES.md writes them (one line), so a title with
 * a stray newline still finds its notes.
 */
import { oneLine } from "./agent-notes.ts";
import type { Skill, SkillTodo } from "./agent-types.ts";

/** Every todo the agent could work, plan first, by its one-line title. */
export function skillTodos(skill: Skill): Map<string, SkillTodo> {
  const all = new Map<string, SkillTodo>();
  for (const t of skill.plan) all.set(oneLine(t.title), t);
  for (const d of skill.discoveries) {
    if (!all.has(oneLine(d.todo.title))) all.set(oneLine(d.todo.title), d.todo);
  }
  return all;
}

/**
 * The order the agent works in: the plan, with each discovery placed right after the todo
 * whose completion reveals it (and only once that todo is done; a discovery may itself
 * reveal another).
 */
export function workOrder(skill: Skill, done: ReadonlySet<string>): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const place = (title: string) => {
    if (seen.has(title)) return;
    seen.add(title);
    order.push(title);
    if (!done.has(title)) return;
    for (const d of skill.discoveries) {
      if (oneLine(d.afterTitle) === title) place(oneLine(d.todo.title));
    }
  };
  for (const t of skill.plan) place(oneLine(t.title));
  return order;
}

/** The discoveries that finishing `title` reveals. */
export function revealedBy(skill: Skill, title: string): Skill["discoveries"] {
  return skill.discoveries.filter((d) => oneLine(d.afterTitle) === title);
}

/**
 * The skill todo the text names: the longest title that appears in it as whole words,
 * ignoring case and spacing, so "Add parser tests" wins over "Add parser" when both appear
 * and a title "API" is not found in "rapid".
 */
export function namedTodo(text: string, skill: Skill): string | null {
  const haystack = squash(text);
  let best: string | null = null;
  for (const title of skillTodos(skill).keys()) {
    const needle = squash(title);
    if (needle === "" || !containsWords(haystack, needle)) continue;
    if (best === null || needle.length > squash(best).length) best = title;
  }
  return best;
}

/**
 * The files that finish `todo` as far as the agent knows: its files with the review fixes
 * it has already answered laid over them, so later slices do not undo a review.
 */
export function targetFiles(todo: SkillTodo, roundsFixed: number): Map<string, string> {
  const files = new Map<string, string>();
  for (const path of Object.keys(todo.files).sort()) files.set(path, todo.files[path]!);
  const rounds = Math.min(roundsFixed, todo.reviewFixes.length);
  for (let i = 0; i < rounds; i++) {
    const fix = todo.reviewFixes[i]!;
    for (const path of Object.keys(fix).sort()) files.set(path, fix[path]!);
  }
  return files;
}

/** The todo `stuck` never gets past: its second, or its only one. */
export function stuckTitle(skill: Skill): string | null {
  const first = skill.plan[0];
  const second = skill.plan[1] ?? first;
  return second ? oneLine(second.title) : null;
}

function containsWords(haystack: string, needle: string): boolean {
  const escaped = needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "u").test(haystack);
}

function squash(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}

/** Every content the skill has for `path`: before, after and reviewed, in any todo. */
export function ownContents(skill: Skill, path: string): Set<string> {
  const out = new Set<string>();
  for (const todo of skillTodos(skill).values()) {
    for (const files of [todo.before ?? {}, todo.files, ...todo.reviewFixes]) {
      const content = files[path];
      if (content !== undefined) out.add(content);
    }
  }
  return out;
}
