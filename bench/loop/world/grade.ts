/**
 * The bench's score for a cell: which todos have landed, judged by their hidden acceptance
 * tests on what `main` holds — never by what an arm says it did.
 */
import type { LoadedTask, Tree } from "../tasks/load-tasks.ts";
import { runHidden } from "../tasks/run-hidden.ts";

export interface Grade {
  /** Todo keys whose hidden test passes, in landing order. */
  landed: string[];
  /** Todos the task has (a plan revision's added todo included). */
  total: number;
}

/** Grades any tree of the task's project. */
export async function gradeTree(task: LoadedTask, tree: Tree): Promise<Grade> {
  const keys = task.todoOrder();
  const passed = await runHidden(tree, keys, (k) => task.hiddenTest(k));
  return { landed: keys.filter((k) => passed[k] === true), total: keys.length };
}
