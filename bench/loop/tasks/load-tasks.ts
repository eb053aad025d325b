/**
 * Loads the `bench:loop` task corpus: each folder here is one task (see task-spec.ts for its
 * `task.json`), with the project as it starts (`repo/`), one overlay per todo that finishes it
 * (`solution/<key>/`, full file contents), reviewers' rounds (`solution/<key>.review-<n>/`) and
 * the hidden acceptance test of each todo (`hidden/<key>.test.mjs`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { applyOverlay, readTree, type Tree } from "./read-tree.ts";
import { revisedOrder, TaskSpec, type Todo } from "./task-spec.ts";

export { applyOverlay, readTree, type Tree } from "./read-tree.ts";
export { TaskSpec, Todo, TRAITS, type Trait } from "./task-spec.ts";

/** The folder holding the corpus (this module's folder). */
export const TASKS_DIR = fileURLToPath(new URL(".", import.meta.url));

export interface ReviewRound {
  todoKey: string;
  /** 1-based: round n is applied after rounds 1..n-1. */
  round: number;
}

export interface LoadedTask {
  spec: TaskSpec;
  /** Absolute paths. */
  dir: string;
  repoDir: string;
  solutionDir: string;
  hiddenDir: string;
  /** Todo keys in landing order: with a plan revision, the added todo follows `afterTodo`. */
  todoOrder(): string[];
  /** The todo's metadata, the added one of a plan revision included. */
  todo(key: string): Todo;
  repoFiles(): Tree;
  /** The files that finish `todoKey`, or with `review` those that answer that review round. */
  overlay(todoKey: string, review?: number): Tree;
  /** Every review round held in `solution/`, in order. */
  reviews(): ReviewRound[];
  /** `repo/` with the first `count` todos' overlays applied in landing order. */
  treeAfter(count: number): Tree;
  /** Source of the todo's hidden test, to be run as `.hidden/<key>.test.mjs` in a checkout. */
  hiddenTest(todoKey: string): string;
}

const REVIEW_DIR = /^(?<key>[a-z0-9][a-z0-9-]*)\.review-(?<round>[1-9][0-9]*)$/;

/** Every task under `dir`, sorted by id; throws on the first malformed one, naming it. */
export async function loadTasks(dir: string = TASKS_DIR): Promise<LoadedTask[]> {
  const folders = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return folders.map((name) => loadTask(resolve(dir, name)));
}

export function loadTask(dir: string): LoadedTask {
  const spec = readSpec(join(dir, "task.json"));
  const folder = dir.split(/[\\/]/).pop();
  if (spec.id !== folder) {
    throw new Error(`${join(dir, "task.json")}: id "${spec.id}" must equal its folder "${folder}"`);
  }
  const repoDir = join(dir, "repo");
  const solutionDir = join(dir, "solution");
  const hiddenDir = join(dir, "hidden");
  const order = revisedOrder(spec);
  const todos = new Map<string, Todo>(spec.todos.map((t) => [t.key, t]));
  if (spec.planRevision) todos.set(spec.planRevision.add.key, spec.planRevision.add);
  const reviews = checkLayout(dir, order, spec.review.changeRequests);

  const todo = (key: string): Todo => {
    const t = todos.get(key);
    if (!t) throw new Error(`${dir}: no todo "${key}" (todos: ${order.join(", ")})`);
    return t;
  };
  const overlay = (key: string, review?: number): Tree => {
    todo(key);
    if (review === undefined) return readTree(join(solutionDir, key));
    if (!reviews.some((r) => r.todoKey === key && r.round === review)) {
      throw new Error(`${solutionDir}: todo ${key} has no review round ${review}`);
    }
    return readTree(join(solutionDir, `${key}.review-${review}`));
  };
  return {
    spec,
    dir,
    repoDir,
    solutionDir,
    hiddenDir,
    todoOrder: () => [...order],
    todo,
    repoFiles: () => readTree(repoDir),
    overlay,
    reviews: () => reviews.map((r) => ({ ...r })),
    treeAfter: (count) =>
      order
        .slice(0, count)
        .reduce((tree, key) => applyOverlay(tree, overlay(key)), readTree(repoDir)),
    hiddenTest: (key) => {
      todo(key);
      return readFileSync(join(hiddenDir, `${key}.test.mjs`), "utf8");
    },
  };
}

function readSpec(file: string): TaskSpec {
  if (!existsSync(file)) {
    throw new Error(`${file}: missing; every folder of the corpus is a task and needs a task.json`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`${file}: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = TaskSpec.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `${file}: does not match TaskSpec (bench/loop/tasks/task-spec.ts):\n${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}

/** The folders a task must hold, and nothing the loader would silently ignore. */
function checkLayout(dir: string, order: string[], changeRequests: number): ReviewRound[] {
  const need = (path: string, what: string) => {
    if (!existsSync(path) || !statSync(path).isDirectory()) {
      throw new Error(`${path}: missing; it holds ${what}`);
    }
  };
  need(join(dir, "repo"), "the project as the task starts");
  need(join(dir, "solution"), "one overlay folder per todo");
  need(join(dir, "hidden"), "one hidden test per todo");

  const reviews: ReviewRound[] = [];
  for (const name of readdirSync(join(dir, "solution")).sort()) {
    const m = REVIEW_DIR.exec(name);
    if (m?.groups?.key !== undefined && order.includes(m.groups.key)) {
      reviews.push({ todoKey: m.groups.key, round: Number(m.groups.round) });
    } else if (!order.includes(name)) {
      throw new Error(
        `${join(dir, "solution", name)}: names no todo (${order.join(", ")}) nor a review round <key>.review-<n>`,
      );
    }
  }
  for (const key of order) need(join(dir, "solution", key), `the files that finish todo ${key}`);
  reviews.sort((a, b) => a.round - b.round);
  const reviewed = new Set(reviews.map((r) => r.todoKey));
  const rounds = reviews.map((r) => r.round).join(",");
  const want = Array.from({ length: changeRequests }, (_, i) => i + 1).join(",");
  if (reviewed.size > 1 || rounds !== want) {
    throw new Error(
      `${join(dir, "solution")}: review.changeRequests is ${changeRequests}, so it needs rounds ${want || "none"} of one todo (<key>.review-1 …); it holds ${reviews.map((r) => `${r.todoKey}.review-${r.round}`).join(", ") || "none"}`,
    );
  }

  const hidden = readdirSync(join(dir, "hidden")).sort();
  const wantHidden = order.map((k) => `${k}.test.mjs`).sort();
  if (hidden.join("\n") !== wantHidden.join("\n")) {
    throw new Error(
      `${join(dir, "hidden")}: holds ${hidden.join(", ") || "nothing"}; it must hold exactly ${wantHidden.join(", ")}`,
    );
  }
  return reviews;
}
