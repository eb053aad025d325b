/**
 * `npm run bench:loop`: each arm on each cell (task × agent profile × fault), every arm
 * against the same world — the task's repository on a fresh sandbox, its CI, one scripted
 * person — and graded by the task's hidden tests on `main`. Prints one table and the targets
 * this run can judge, and writes bench/loop-results.md.
 *
 *   npm run bench:loop                 # every task with no fault, then the fault cells
 *   npm run bench:loop -- --quick      # two tasks and one fault cell: the CI check's size
 *   npm run bench:loop -- --tasks a,b  # only these tasks (by id); results are printed, not written
 *   npm run bench:loop -- --jobs N     # N cells at once, each in a worker process (default: one
 *                                      # per core); --jobs 1 plays them one after another
 *   npm run bench:loop -- --real-model claude [--trials N]   # or codex; with --quick or --tasks
 *
 * `--real-model` replaces the fixed scripted agent with a real model's CLI (the `claude` or
 * `codex` installed in node_modules) in every arm: each slice copies the checkout to a
 * throwaway directory, runs the CLI there on the arm's prompt and reads back the files and a
 * small result file holding its claims (agent/real-agent.ts). Keys come from the environment
 * (claude: ANTHROPIC_API_KEY, optionally ANTHROPIC_BASE_URL; codex: OPENAI_API_KEY, optionally
 * OPENAI_BASE_URL) and are checked before any cell runs. Each arm plays each cell `--trials`
 * times (default and minimum 5); it prints the mean reward (landed / total todos) per cell and
 * arm with a 95 % t interval, and never writes bench/loop-results.md: those figures are the
 * model's, not the fixed agent's. It calls the model's API and costs money; nothing here runs it.
 */
import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { realModelAgent } from "./agent/real-agent.ts";
import { RealModelError } from "./agent/real-model-setup.ts";
import { benchArms } from "./arms/all-arms.ts";
import { ABLATION, type Arm, type CellSpec } from "./arms/arm-types.ts";
import { OUTAGE_MINUTES } from "./arms/loopx/actions-outage.ts";
import type { CellMetrics } from "./cell-metrics.ts";
import { cellPool } from "./cell-pool.ts";
import { type CellResult, renderTable, renderTargets, targets } from "./loop-table.ts";
import {
  cellName,
  cellOf,
  FAULT_CELLS,
  HORIZON_HOURS,
  partnerOf,
  pickTasks,
  playCell,
  SEED,
} from "./play-cell.ts";
import { realModelFlags } from "./real-model-flags.ts";
import { benchTrials, renderTrials } from "./real-trials.ts";
import { type LoadedTask, loadTasks } from "./tasks/load-tasks.ts";

export interface LoopBench {
  results: CellResult[];
  arms: string[];
  wallMs: number;
}

/** One row of the table: a cell and each arm that plays it. */
interface CellRow {
  cell: CellSpec;
  arms: Arm[];
}

/** Every play of a run, row by row in the table's order. */
function cellRows(
  tasks: readonly LoadedTask[],
  all: readonly LoadedTask[],
  opts: { quick: boolean; arms: Arm[] },
): CellRow[] {
  const rows: CellRow[] = [];
  const add = (cell: CellSpec, arms: readonly Arm[]) => {
    // A cell already listed (a no-fault one an ablation also names) gains the new columns.
    const same = rows.find((r) => cellName(r.cell) === cellName(cell));
    if (same) same.arms.push(...arms);
    else rows.push({ cell, arms: [...arms] });
  };
  // Ablations play only the cells that name them.
  const whole = opts.arms.filter((a) => !a.ablates);
  for (const task of tasks) {
    // A shared-file pair is one cell with both goals, played by the arms that can run two.
    const partner = partnerOf(task, all);
    if (partner)
      add(
        { ...cellOf(task), partner },
        whole.filter((a) => a.pairs),
      );
    else add(cellOf(task), whole);
  }
  // The fault cells of the tasks this run covers (with --quick, one: a killed runner).
  const faults = FAULT_CELLS.filter(
    (f) => tasks.some((t) => t.spec.id === f.task) && (!opts.quick || f.fault === "runner-killed"),
  );
  for (const f of faults) {
    const task = tasks.find((t) => t.spec.id === f.task);
    const arms = opts.arms.filter((a) => f.arms.includes(a.name));
    if (task && arms.length > 0) add(cellOf(task, f.fault, f.profile, f.budgetUsd), arms);
  }
  return rows;
}

/** playCell in this process, one world at a time: each world holds a PGlite of its own. */
function oneAtATime(): (cell: CellSpec, arm: Arm) => Promise<CellMetrics> {
  let last: Promise<unknown> = Promise.resolve();
  return (cell, arm) => {
    const next = last.then(() => playCell(cell, arm));
    last = next.catch(() => {});
    return next;
  };
}

export async function benchLoop(opts: {
  quick: boolean;
  arms: Arm[];
  only?: string[];
  /**
   * Plays one arm on one cell (default: playCell in this process, one at a time). Every play
   * of the run is asked for at once, so a pool (cell-pool.ts) decides how many run together.
   */
  play?: (cell: CellSpec, arm: Arm) => Promise<CellMetrics>;
}): Promise<LoopBench> {
  const play = opts.play ?? oneAtATime();
  const started = performance.now();
  const all = await loadTasks();
  const rows = cellRows(pickTasks(all, opts), all, opts);
  // Every play is asked for now, in the list's order; the table keeps that order whichever
  // play ends first.
  const results = await Promise.all(
    rows.map(
      async ({ cell, arms }): Promise<CellResult> => ({
        cell: cellName(cell),
        task: cell.task.spec.id,
        profile: cell.profile,
        fault: cell.fault,
        byArm: new Map(
          await Promise.all(arms.map(async (arm) => [arm.name, await play(cell, arm)] as const)),
        ),
        ...(cell.partner ? { pair: true } : {}),
      }),
    ),
  );
  // A column per arm that played a cell of this run.
  const played = opts.arms.filter((a) => results.some((r) => r.byArm.has(a.name)));
  return { results, arms: played.map((a) => a.name), wallMs: performance.now() - started };
}

/**
 * `--jobs N`: how many cells play at once, each in a worker process (default: one per core).
 * Throws a FlagError saying what works for anything but a whole number from 1 up.
 */
export function jobsFlag(
  argv: readonly string[],
  cores = availableParallelism(),
  realModel = false,
): number {
  const at = argv.indexOf("--jobs");
  if (at < 0) return cores;
  // A real model's trials call a paid API one at a time: no pool plays them.
  if (realModel) {
    throw new FlagError(
      "--jobs plays the scripted bench's cells in parallel; --real-model plays its trials one at a time: leave --jobs out",
    );
  }
  const value = argv[at + 1];
  if (value === undefined || !/^[1-9][0-9]*$/.test(value)) {
    throw new FlagError(
      `--jobs takes how many cells to play at once, a whole number from 1 up (this machine has ${cores} cores, the default), not ${JSON.stringify(value ?? "")}; e.g. --jobs 2`,
    );
  }
  return Number(value);
}

/** A flag the operator mistyped: printed without a stack, exit 2, nothing played. */
export class FlagError extends Error {}

/** What each `loopx-without-…` column lacks and which cells it played, read from the run. */
function ablationNote(bench: LoopBench): string[] {
  const ablations = bench.arms.filter((a) => a.startsWith(ABLATION));
  if (ablations.length === 0) return [];
  const where = ablations.map((a) => {
    const cells = bench.results.filter((r) => r.byArm.has(a)).map((r) => r.cell);
    return `without ${a.slice(ABLATION.length)} in ${cells.join(", ")}`;
  });
  const outage = bench.results.some((r) => r.fault === "actions-outage")
    ? ` An \`actions-outage\` cell has GitHub Actions down for ${OUTAGE_MINUTES} minutes: every tick run dispatched meanwhile fails before it reaches LoopX.`
    : "";
  return [
    `A \`${ABLATION}…\` column is LoopX installed without that one component, played only in the cells that test it: ${where.join("; ")}.${outage}`,
    "",
  ];
}

/**
 * Where an ablation met its cell's fault otherwise than LoopX did, what each made of it (the
 * arms' own fault lines): the table's figures alone can be equal when the outcomes are not.
 */
function faultNote(bench: LoopBench): string[] {
  const lines: string[] = [];
  for (const r of bench.results) {
    const shipped = r.byArm.get("loopx")?.faults ?? [];
    for (const [arm, m] of r.byArm) {
      if (!arm.startsWith(ABLATION) || m.faults.join("\n") === shipped.join("\n")) continue;
      lines.push(
        `- ${r.cell}: LoopX — ${shipped.join("; ") || "nothing struck"}. ${arm} — ${m.faults.join("; ") || "nothing struck"}.`,
      );
    }
  }
  return lines.length === 0
    ? []
    : [
        "Where an ablation met its fault otherwise than LoopX (each arm's record of it):",
        "",
        ...lines,
        "",
      ];
}

export function renderResults(bench: LoopBench, quick: boolean): string {
  const list = targets(bench.results);
  return [
    "# bench:loop",
    "",
    `Measured ${new Date().toISOString()} by \`npm run bench:loop${quick ? " -- --quick" : ""}\` in ${(bench.wallMs / 1000).toFixed(0)} s (wall).`,
    `Each cell: the task's repository on a fresh sandbox, CI on PR heads, one scripted person, ${HORIZON_HOURS} simulated hours, seed ${SEED}; landed = the todo's hidden test passes on main. The n-th agent job of a cell draws the same luck in every arm, so a flaky or dying agent fails on the same jobs whichever arm runs it.`,
    "",
    renderTable(bench.results, bench.arms),
    "",
    ...ablationNote(bench),
    ...faultNote(bench),
    ...(bench.results.some((r) => r.pair)
      ? [
          `A cell named "a + b" files both tasks' objectives as two goals on one repository (they change a file in common). The arms showing — there follow one objective per repository: their recipe names one issue, one branch and one progress file.`,
          "",
        ]
      : []),
    "## Targets",
    "",
    renderTargets(list),
    "",
  ].join("\n");
}

async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const real = realModelFlags(argv, env);
  const quick = argv.includes("--quick");
  const at = argv.indexOf("--tasks");
  const only = at >= 0 ? (argv[at + 1] ?? "").split(",").filter(Boolean) : undefined;
  const jobs = jobsFlag(argv, availableParallelism(), real !== null);
  const arms = benchArms();
  if (real !== null) {
    const all = await loadTasks();
    const tasks = pickTasks(all, { quick, ...(only ? { only } : {}) });
    const cells = await benchTrials({
      tasks,
      all,
      arms,
      agent: realModelAgent(real.setup),
      trials: real.trials,
      progress: (line) => console.error(line),
    });
    console.log(renderTrials({ model: real.setup.name, cells }));
    return 0;
  }
  const pool = cellPool(jobs);
  let bench: LoopBench;
  try {
    bench = await benchLoop({ quick, arms, ...(only ? { only } : {}), play: pool.play });
  } finally {
    await pool.close();
  }
  const text = renderResults(bench, quick);
  console.log(text);
  if (!quick && !only) writeFileSync(new URL("../loop-results.md", import.meta.url), text);
  const sanity = targets(bench.results)[0];
  if (sanity?.met === false) {
    console.error("baseline broken: B1 lands too little with no faults; fix the world or B1 first");
    return 1;
  }
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = await main(process.argv.slice(2), process.env);
  } catch (err) {
    if (!(err instanceof RealModelError || err instanceof FlagError)) throw err;
    console.error(`bench:loop: ${err.message}`);
    process.exitCode = 2;
  }
}
