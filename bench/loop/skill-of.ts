/**
 * The fixed agent's competence for one task: the todo titles in the order the task's author
 * planned them, the files that finish each, the answers to its reviewers' rounds, and the
 * todo a plan revision discovers. Every arm hands the agent the same skill; only what the
 * control plane tells it, and when, differs.
 */
import type { Skill, SkillTodo } from "./agent/agent-types.ts";
import type { LoadedTask } from "./tasks/load-tasks.ts";

export function skillOf(task: LoadedTask): Skill {
  const rounds = task.reviews();
  const todo = (key: string): SkillTodo => {
    const spec = task.todo(key);
    return {
      title: spec.title,
      slices: spec.slices,
      files: Object.fromEntries(task.overlay(key)),
      reviewFixes: rounds
        .filter((r) => r.todoKey === key)
        .sort((a, b) => a.round - b.round)
        .map((r) => Object.fromEntries(task.overlay(key, r.round))),
    };
  };
  const revision = task.spec.planRevision;
  return {
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
