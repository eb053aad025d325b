/**
 * The fixed agent's competence for one task: the todo titles in the order the task's author
 * planned them, the files that finish each, the answers to its reviewers' rounds, and the
 * todo a plan revision discovers. Every arm hands the agent the same skill; only what the
 * control plane tells it, and when, differs.
 */
import type { Skill, SkillTodo } from "./agent/agent-types.ts";
import type { LoadedTask } from "./tasks/load-tasks.ts";

export function skillOf(task: LoadedTask, opts: { notesPath?: string } = {}): Skill {
  const rounds = task.reviews();
  const befores = beforeEach(task);
  const todo = (key: string): SkillTodo => {
    const spec = task.todo(key);
    return {
      title: spec.title,
      slices: spec.slices,
      files: Object.fromEntries(task.overlay(key)),
      before: befores.get(key) ?? {},
      reviewFixes: rounds
        .filter((r) => r.todoKey === key)
        .sort((a, b) => a.round - b.round)
        .map((r) => Object.fromEntries(task.overlay(key, r.round))),
    };
  };
  const revision = task.spec.planRevision;
  return {
    ...(opts.notesPath ? { notesPath: opts.notesPath } : {}),
    plan: task.spec.todos.map((t) => todo(t.key)),
    discoveries:
      revision === null
        ? []
        : [
            {
              afterTitle: task.todo(revision.afterTodo).title,
              todo: todo(revision.add.key),
              why: revision.why,
            },
          ],
  };
}

/**
 * What each todo's files held before it, in the task's landing order: the overlays are
 * cumulative, so a file's "before" is the last earlier todo's copy, else the repository's.
 */
function beforeEach(task: LoadedTask): Map<string, Record<string, string>> {
  const state = new Map(task.repoFiles());
  const out = new Map<string, Record<string, string>>();
  for (const key of task.todoOrder()) {
    const overlay = task.overlay(key);
    const before: Record<string, string> = {};
    for (const path of overlay.keys()) {
      const was = state.get(path);
      if (was !== undefined) before[path] = was;
    }
    out.set(key, before);
    for (const [path, content] of overlay) state.set(path, content);
  }
  return out;
}
