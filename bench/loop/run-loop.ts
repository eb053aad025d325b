/**
 * `npm run bench:loop`: each arm on each cell (task × agent profile × fault), every arm
 * against the same world — the task's repository on a fresh sandbox, its CI, one scripted
 * person — and graded by the task's hidden tests on `main`. Prints one table and the targets
 * this run can judge, and writes bench/loop-results.md.
 *
 *   npm run bench:loop                 # every task, competent agent, no fault
 *   npm run bench:loop -- --quick      # two tasks: the CI check's size
 *   npm run bench:loop -- --tasks a,b  # only these tasks (by id); results are printed, not written
 */
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createSandbox } from "../../packages/sandbox/src/index.ts";
import type { Arm, CellSpec } from "./arms/arm-types.ts";
import { b0Arm } from "./arms/b0-arm.ts";
import { b1Arm } from "./arms/b1-arm.ts";
import { loopxArm } from "./arms/loopx-arm.ts";
import { oracleArm } from "./arms/oracle-arm.ts";
import { type CellMetrics, cellMetrics } from "./cell-metrics.ts";
import { type CellResult, renderTable, renderTargets, targets } from "./loop-table.ts";
import { skillOf } from "./skill-of.ts";
import { type LoadedTask, loadTasks } from "./tasks/load-tasks.ts";
import { startCellWorld } from "./world/cell-world.ts";

const QUICK_TASKS = ["csv-quoting", "lru-cache-ttl"];
const HORIZON_HOURS = 96;
const SEED = 1;

export interface LoopBench {
  results: CellResult[];
  arms: string[];
  wallMs: number;
}

export async function benchLoop(opts: {
  quick: boolean;
  arms: Arm[];
  only?: string[];
}): Promise<LoopBench> {
  const started = performance.now();
  const all = await loadTasks();
  const unknown = (opts.only ?? []).filter((id) => !all.some((t) => t.spec.id === id));
  if (opts.only?.length === 0 || unknown.length > 0) {
    throw new Error(
      `--tasks takes task ids separated by commas${unknown.length > 0 ? `, and names no task ${unknown.join(", ")}` : ""}; the tasks are ${all.map((t) => t.spec.id).join(", ")}`,
    );
  }
  const picked = opts.only ?? (opts.quick ? QUICK_TASKS : null);
  // The second task of a shared-file pair needs both goals in one repository: not yet a cell.
  const tasks = all.filter((t) => (picked ? picked.includes(t.spec.id) : !secondOfPair(t, all)));
  const results: CellResult[] = [];
  for (const task of tasks) {
    const cell: CellSpec = {
      task,
      profile: "competent",
      fault: "none",
      seed: SEED,
      horizonHours: HORIZON_HOURS,
    };
    const byArm = new Map<string, CellMetrics>();
    for (const arm of opts.arms) {
      const sandbox = await createSandbox();
      try {
        const world = await startCellWorld({
          sandbox,
          task,
          repo: `bench/${task.spec.id}`,
          seed: cell.seed,
        });
        try {
          const run = await arm.run({ world, cell, skill: skillOf(task) });
          byArm.set(arm.name, await cellMetrics(world, run, { injected: false }));
        } finally {
          world.close();
        }
      } finally {
        await sandbox.stop();
      }
    }
    results.push({ cell: `${task.spec.id} · ${cell.profile} · ${cell.fault}`, byArm });
  }
  return { results, arms: opts.arms.map((a) => a.name), wallMs: performance.now() - started };
}

function secondOfPair(task: LoadedTask, all: LoadedTask[]): boolean {
  const other = task.spec.sharedWith;
  return other !== null && all.some((t) => t.spec.id === other && t.spec.id < task.spec.id);
}

export function renderResults(bench: LoopBench, quick: boolean): string {
  const list = targets(bench.results);
  return [
    "# bench:loop",
    "",
    `Measured ${new Date().toISOString()} by \`npm run bench:loop${quick ? " -- --quick" : ""}\` in ${(bench.wallMs / 1000).toFixed(0)} s (wall).`,
    `Each cell: the task's repository on a fresh sandbox, CI on PR heads, one scripted person, ${HORIZON_HOURS} simulated hours, seed ${SEED}; landed = the todo's hidden test passes on main.`,
    "",
    renderTable(bench.results, bench.arms),
    "",
    "## Targets",
    "",
    renderTargets(list),
    "",
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const quick = process.argv.includes("--quick");
  const at = process.argv.indexOf("--tasks");
  const only = at >= 0 ? (process.argv[at + 1] ?? "").split(",").filter(Boolean) : undefined;
  const arms = [b0Arm(), b1Arm(), oracleArm(), loopxArm()];
  const bench = await benchLoop({ quick, arms, ...(only ? { only } : {}) });
  const text = renderResults(bench, quick);
  console.log(text);
  if (!quick && !only) writeFileSync(new URL("../loop-results.md", import.meta.url), text);
  const sanity = targets(bench.results)[0];
  if (sanity?.met === false) {
    console.error("baseline broken: B1 lands too little with no faults; fix the world or B1 first");
    process.exitCode = 1;
  }
}
