/**
 * The schema of a task's `task.json` in the `bench:loop` corpus. The cross-field rules live
 * here too, so a task whose metadata contradicts its traits is refused when it is loaded, with
 * the field named, rather than skewing a benchmark run later.
 */
import { z } from "zod";

/** What long agent work meets; each task names the ones it exercises. */
export const TRAITS = [
  "multi-file-migration",
  "repro-first",
  "ci-fails-twice",
  "review-changes-twice",
  "workflow-gate",
  "plan-revision",
  "shared-file",
  "plain",
] as const;
export const Trait = z.enum(TRAITS);
export type Trait = z.infer<typeof Trait>;

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

// A todo key names a folder and a file (`solution/<key>/`, `hidden/<key>.test.mjs`); no dots,
// so `<key>.review-<n>` can never be mistaken for a key.
const TodoKey = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]*$/, "a todo key is lowercase letters, digits and dashes");

const ProjectPath = z
  .string()
  .min(1)
  .refine(
    (p) => !p.startsWith("/") && !p.includes("\\") && !p.split("/").some((s) => s === ".."),
    "a path is relative to the project root, with / separators and no `..`",
  );

export const Todo = z.strictObject({
  key: TodoKey,
  title: z.string().min(1),
  /** Agent slices a competent agent needs for this todo. */
  slices: z.int().min(1).max(3),
  /** Exactly the files of `solution/<key>/`. */
  paths: z.array(ProjectPath).min(1),
});
export type Todo = z.infer<typeof Todo>;

export const TaskSpec = z
  .strictObject({
    id: z.string().regex(KEBAB, "the id is kebab-case (it is the task's folder name)"),
    title: z.string().min(1),
    /** The issue body a user would write: the objective only, never the todo list. */
    objective: z.string().min(1),
    todos: z.array(Todo).min(1),
    traits: z.array(Trait).min(1),
    ci: z.strictObject({ failFirst: z.int().min(0) }),
    review: z.strictObject({ changeRequests: z.int().min(0), ask: z.string() }),
    gate: z.strictObject({ paths: z.array(z.string().min(1)).min(1) }),
    planRevision: z
      .strictObject({ afterTodo: TodoKey, add: Todo, why: z.string().min(1) })
      .nullable(),
    sharedWith: z.string().regex(KEBAB, "sharedWith names another task's id").nullable(),
  })
  .superRefine((spec, ctx) => {
    const has = (t: Trait) => spec.traits.includes(t);
    const fail = (path: (string | number)[], message: string) =>
      ctx.addIssue({ code: "custom", path, message });

    if (new Set(spec.traits).size !== spec.traits.length) fail(["traits"], "a trait is repeated");
    if (has("plain") && spec.traits.length > 1) {
      fail(["traits"], '"plain" means none of the other traits: drop it or drop the others');
    }
    const wantFails = has("ci-fails-twice") ? 2 : 0;
    if (spec.ci.failFirst !== wantFails) {
      fail(["ci", "failFirst"], `is ${wantFails} for this task (2 exactly with "ci-fails-twice")`);
    }
    const wantRounds = has("review-changes-twice") ? 2 : 0;
    if (spec.review.changeRequests !== wantRounds) {
      fail(
        ["review", "changeRequests"],
        `is ${wantRounds} for this task (2 exactly with "review-changes-twice")`,
      );
    }
    if (spec.review.changeRequests > 0 && spec.review.ask.trim() === "") {
      fail(["review", "ask"], "say what the reviewer asks for");
    }
    if ((spec.planRevision !== null) !== has("plan-revision")) {
      fail(["planRevision"], 'is set exactly when traits has "plan-revision"');
    }
    if ((spec.sharedWith !== null) !== has("shared-file")) {
      fail(["sharedWith"], 'is set exactly when traits has "shared-file"');
    }
    if (spec.sharedWith === spec.id) fail(["sharedWith"], "names another task, not this one");

    const keys = spec.todos.map((t) => t.key);
    if (spec.planRevision) {
      if (!keys.includes(spec.planRevision.afterTodo)) {
        fail(["planRevision", "afterTodo"], `names none of the todos (${keys.join(", ")})`);
      }
      keys.push(spec.planRevision.add.key);
    }
    if (new Set(keys).size !== keys.length) fail(["todos"], "two todos share a key");
    spec.todos.forEach((t, i) => {
      if (new Set(t.paths).size !== t.paths.length) {
        fail(["todos", i, "paths"], "a path is listed twice");
      }
    });
  });
export type TaskSpec = z.infer<typeof TaskSpec>;

/** The todo keys in the order they land: the added todo right after `afterTodo`. */
export function revisedOrder(spec: TaskSpec): string[] {
  const order = spec.todos.map((t) => t.key);
  const rev = spec.planRevision;
  if (!rev) return order;
  order.splice(order.indexOf(rev.afterTodo) + 1, 0, rev.add.key);
  return order;
}
