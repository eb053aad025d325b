/**
 * The `bench:loop` task corpus is well-formed: every task's metadata, overlays and hidden tests
 * agree, so a benchmark run measures the control plane, never a broken task. Each (task, number
 * of todos landed) is one `node --test` run, a few at a time, started together up front.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { isGated } from "../../bench/loop/tasks/gate-glob.ts";
import {
  applyOverlay,
  type LoadedTask,
  loadTasks,
  TaskSpec,
  TRAITS,
} from "../../bench/loop/tasks/load-tasks.ts";
import { mergeTrees } from "../../bench/loop/tasks/merge-trees.ts";
import {
  type CheckRun,
  runChecks,
  runHidden,
  runVisible,
  VISIBLE_TEST_SCRIPT,
} from "../../bench/loop/tasks/run-hidden.ts";
import { lintWorkflows } from "../../scripts/lint-workflows.ts";

const tasks = await loadTasks();
const CI_YML = ".github/workflows/ci.yml";

// Two to four `node --test` processes at once: each also spawns one child per test file.
const pool = limit(Math.min(4, Math.max(2, availableParallelism())));
const runs = new Map<string, Promise<CheckRun>>();

function schedule(key: string, job: () => Promise<CheckRun>): Promise<CheckRun> {
  let run = runs.get(key);
  if (!run) {
    run = pool(job);
    run.catch(() => undefined); // awaited by its test; this only keeps it from being "unhandled"
    runs.set(key, run);
  }
  return run;
}

/** Visible tests and every hidden test of `task`, after its first `landed` todos. */
const afterTodos = (task: LoadedTask, landed: number) =>
  schedule(`${task.spec.id}@${landed}`, () =>
    runChecks(task.treeAfter(landed), task.todoOrder(), (k) => task.hiddenTest(k)),
  );

/** Like afterTodos, up to the reviewed todo, with review rounds 1..round applied. */
const afterReview = (task: LoadedTask, todoKey: string, round: number) =>
  schedule(`${task.spec.id}@${todoKey}.review-${round}`, () => {
    const landed = task.todoOrder().indexOf(todoKey) + 1;
    let tree = task.treeAfter(landed);
    for (let r = 1; r <= round; r++) tree = applyOverlay(tree, task.overlay(todoKey, r));
    const keys = task.todoOrder().slice(0, landed);
    return runChecks(tree, keys, (k) => task.hiddenTest(k));
  });

const sharedPair = tasks.filter((t) => t.spec.sharedWith !== null);

beforeAll(() => {
  for (const task of tasks) {
    for (let n = 0; n <= task.todoOrder().length; n++) void afterTodos(task, n);
    for (const r of task.reviews()) void afterReview(task, r.todoKey, r.round);
  }
});

describe.each(tasks.map((t) => [t.spec.id, t] as const))("task %s", (id, task) => {
  const order = task.todoOrder();

  it("task.json matches TaskSpec, names its folder, and plans 3 to 5 todos", async () => {
    const raw: unknown = JSON.parse(await readFile(join(task.dir, "task.json"), "utf8"));
    expect(TaskSpec.safeParse(raw).success).toBe(true);
    expect(task.dir.endsWith(id)).toBe(true);
    expect(order.length).toBeGreaterThanOrEqual(3);
    expect(order.length).toBeLessThanOrEqual(5);
  });

  it("each overlay holds exactly its todo's paths; review rounds stay within them", () => {
    for (const key of order) {
      expect([...task.overlay(key).keys()].sort(), key).toEqual([...task.todo(key).paths].sort());
    }
    for (const r of task.reviews()) {
      const paths = task.todo(r.todoKey).paths;
      for (const p of task.overlay(r.todoKey, r.round).keys()) expect(paths, p).toContain(p);
    }
  });

  it("is a dependency-free ESM project whose npm test runs test/*.test.mjs", () => {
    const pkg = z
      .looseObject({ type: z.literal("module"), scripts: z.looseObject({ test: z.string() }) })
      .parse(JSON.parse(task.repoFiles().get("package.json") ?? "null"));
    expect(pkg.scripts.test).toBe(VISIBLE_TEST_SCRIPT);
    expect(pkg).not.toHaveProperty("dependencies");
    expect(pkg).not.toHaveProperty("devDependencies");
    const sources = new Map([...task.repoFiles(), ...order.flatMap((k) => [...task.overlay(k)])]);
    for (const k of order) sources.set(`hidden/${k}.test.mjs`, task.hiddenTest(k));
    for (const [path, text] of sources) {
      for (const m of text.matchAll(/\bfrom\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']/g)) {
        const spec = m[1] ?? m[2] ?? "";
        expect(spec.startsWith("node:") || spec.startsWith("."), `${path} imports ${spec}`).toBe(
          true,
        );
      }
    }
  });

  it("visible tests pass on repo/ and after each todo", async () => {
    for (let n = 0; n <= order.length; n++) {
      const run = await afterTodos(task, n);
      expect(run.visible, `after ${n} todo(s): ${run.failures.join("\n")}`).toBe(true);
    }
  });

  it("each hidden test fails before its todo lands and passes from then on", async () => {
    const problems: string[] = [];
    for (let n = 0; n <= order.length; n++) {
      const run = await afterTodos(task, n);
      order.forEach((key, i) => {
        const want = i < n;
        if (run.hidden[key] === want) return;
        const why = want ? run.failures.filter((f) => f.startsWith(`.hidden/${key}.`)) : [];
        problems.push(
          `after ${order.slice(0, n).join(",") || "nothing"}: ${key} should ${want ? "pass" : "fail"} ${why.join(" ")}`,
        );
      });
    }
    expect(problems).toEqual([]);
  });

  it("review rounds keep the visible and hidden tests passing", async () => {
    expect(task.reviews().length).toBe(task.spec.review.changeRequests);
    for (const r of task.reviews()) {
      const run = await afterReview(task, r.todoKey, r.round);
      expect(run.visible, `${r.todoKey}.review-${r.round}: ${run.failures.join("\n")}`).toBe(true);
      expect(Object.values(run.hidden).every(Boolean), run.failures.join("\n")).toBe(true);
    }
  });
});

describe("the corpus", () => {
  it("holds at least 12 tasks and covers every trait", () => {
    expect(tasks.length).toBeGreaterThanOrEqual(12);
    const covered = new Set(tasks.flatMap((t) => t.spec.traits));
    expect([...TRAITS].filter((t) => !covered.has(t))).toEqual([]);
  });

  it("has one shared-file pair: same repository, a common file, both land after a rebase", async () => {
    expect(sharedPair.map((t) => t.spec.id).sort()).toHaveLength(2);
    const [a, b] = sharedPair as [LoadedTask, LoadedTask];
    expect(a.spec.sharedWith).toBe(b.spec.id);
    expect(b.spec.sharedWith).toBe(a.spec.id);
    expect([...a.repoFiles()]).toEqual([...b.repoFiles()]);
    const touched = (t: LoadedTask) => new Set(t.todoOrder().flatMap((k) => t.todo(k).paths));
    const common = [...touched(a)].filter((p) => touched(b).has(p));
    expect(common.length).toBeGreaterThan(0);

    const finalOf = (t: LoadedTask) => t.treeAfter(t.todoOrder().length);
    const merged = await mergeTrees(a.repoFiles(), finalOf(a), finalOf(b));
    expect(merged.conflicts).toEqual([]);
    for (const p of common) {
      expect(merged.tree.get(p), p).not.toBe(finalOf(a).get(p));
      expect(merged.tree.get(p), p).not.toBe(finalOf(b).get(p));
    }
    const hidden = new Map<string, string>();
    for (const t of [a, b])
      for (const k of t.todoOrder()) hidden.set(`${t.spec.id}--${k}`, t.hiddenTest(k));
    const run = await pool(() =>
      runChecks(merged.tree, [...hidden.keys()], (k) => hidden.get(k) ?? ""),
    );
    expect(run.visible, run.failures.join("\n")).toBe(true);
    expect(run.hidden, run.failures.join("\n")).toEqual(
      Object.fromEntries([...hidden.keys()].map((k) => [k, true])),
    );
  });

  it("only workflow-gate tasks touch .github/, and theirs change ci.yml under the gate", async () => {
    const gateTasks = tasks.filter((t) => t.spec.traits.includes("workflow-gate"));
    expect(gateTasks.length).toBeGreaterThan(0);
    for (const task of tasks) {
      const paths = task.todoOrder().flatMap((k) => task.todo(k).paths);
      if (!gateTasks.includes(task)) {
        expect(
          paths.filter((p) => p.startsWith(".github/")),
          task.spec.id,
        ).toEqual([]);
        expect(task.spec.gate.paths, task.spec.id).toEqual([".github/**"]);
        continue;
      }
      expect(paths, task.spec.id).toContain(CI_YML);
      expect(isGated(task.spec.gate.paths, CI_YML)).toBe(true);
      const ciYml = task.treeAfter(task.todoOrder().length).get(CI_YML) ?? "";
      const workflow = z
        .object({
          jobs: z.record(
            z.string(),
            z.object({ steps: z.array(z.looseObject({ run: z.string().optional() })) }),
          ),
        })
        .parse(parseYaml(ciYml));
      const runsNpmTest = Object.values(workflow.jobs).some((j) =>
        j.steps.some((s) => s.run?.includes("npm test")),
      );
      expect(runsNpmTest, `${task.spec.id}: ${CI_YML} runs npm test`).toBe(true);
      expect(await lintWorkflows([{ source: `${task.spec.id}/${CI_YML}`, text: ciYml }])).toEqual(
        [],
      );
    }
  });

  it("repro-first tasks land a failing regression test (marked todo) before the fix", async () => {
    const repro = tasks.filter((t) => t.spec.traits.includes("repro-first"));
    expect(repro.length).toBeGreaterThan(0);
    for (const task of repro) {
      const first = task.todoOrder()[0] ?? "";
      expect(
        task.todo(first).paths.every((p) => p.startsWith("test/")),
        task.spec.id,
      ).toBe(true);
      expect((await afterTodos(task, 1)).todoFailures, task.spec.id).not.toEqual([]);
      expect((await afterTodos(task, 2)).todoFailures, task.spec.id).toEqual([]);
    }
  });

  it("a multi-file migration touches at least four modules", () => {
    const migrations = tasks.filter((t) => t.spec.traits.includes("multi-file-migration"));
    expect(migrations.length).toBeGreaterThan(0);
    for (const t of migrations) {
      const modules = new Set(
        t.todoOrder().flatMap((k) => t.todo(k).paths.filter((p) => p.startsWith("src/"))),
      );
      expect(modules.size, t.spec.id).toBeGreaterThanOrEqual(4);
    }
  });

  it("a plan revision's todo lands right after afterTodo", () => {
    for (const t of tasks.filter((x) => x.spec.planRevision !== null)) {
      const rev = t.spec.planRevision!;
      const order = t.todoOrder();
      expect(order.indexOf(rev.add.key), t.spec.id).toBe(order.indexOf(rev.afterTodo) + 1);
    }
  });

  it("runHidden and runVisible report what runChecks does", async () => {
    const task = tasks[0]!;
    const keys = task.todoOrder();
    const landed = keys.length - 1;
    const hidden = await pool(() => runHidden(task.treeAfter(landed), keys, task.hiddenTest));
    expect(hidden).toEqual(Object.fromEntries(keys.map((k, i) => [k, i < landed])));
    expect(await pool(() => runVisible(task.treeAfter(landed)))).toBe(true);
    const broken = new Map([["test/broken.test.mjs", 'throw new Error("broken");\n']]);
    expect(await pool(() => runVisible(broken))).toBe(false);
  });

  it("a failing run reports the same lines every time, naming a runner's workspace, not its own", async () => {
    // The agent reads CI's failures: a line that varies from run to run would vary its draws.
    const broken = new Map([
      ["src/a.mjs", "export const a = (\n"],
      [
        "test/a.test.mjs",
        'import { a } from "../src/a.mjs";\nimport test from "node:test";\ntest("a", () => a);\n',
      ],
    ]);
    const first = await pool(() => runChecks(broken, [], () => ""));
    const second = await pool(() => runChecks(broken, [], () => ""));
    expect(first.visible).toBe(false);
    expect(first.failures.join("\n")).toContain("/home/runner/work/project/project/src/a.mjs");
    expect(first.failures.join("\n")).not.toContain(tmpdir());
    expect(second.failures).toEqual(first.failures);
  });

  it("an invalid task.json is refused, naming the file and the problem", async () => {
    const dir = await mkdtemp(join(tmpdir(), "loopx-bench-corpus-"));
    try {
      const spec = structuredClone(tasks[0]!.spec);
      await mkdir(join(dir, spec.id));
      const file = join(dir, spec.id, "task.json");
      await writeFile(file, JSON.stringify({ ...spec, todos: [{ ...spec.todos[0], slices: 7 }] }));
      await expect(loadTasks(dir)).rejects.toThrow(file);
      await expect(loadTasks(dir)).rejects.toThrow(/slices/);
      await writeFile(file, JSON.stringify({ ...spec, ci: { failFirst: 2 } }));
      await expect(loadTasks(dir)).rejects.toThrow(/ci\.failFirst/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** At most `max` jobs at once; a finishing job hands its slot straight to the next waiter. */
function limit(max: number): <T>(job: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    if (active < max) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await job();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
