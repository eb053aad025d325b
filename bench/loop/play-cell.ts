/**
 * What every `bench:loop` run shares: which tasks it runs, the cell each task becomes, and one
 * arm played on one cell against a fresh world (its own sandbox, CI and scripted person).
 */
import { createSandbox } from "../../packages/sandbox/src/index.ts";
import type { Agent, Profile, Skill } from "./agent/agent-types.ts";
import type { Arm, CellSpec, FaultName } from "./arms/arm-types.ts";
import { type CellMetrics, cellMetrics } from "./cell-metrics.ts";
import { skillOf } from "./skill-of.ts";
import type { LoadedTask } from "./tasks/load-tasks.ts";
import { startCellWorld } from "./world/cell-world.ts";

export const QUICK_TASKS = ["csv-quoting", "lru-cache-ttl"];
export const HORIZON_HOURS = 96;
export const SEED = 1;

/** The tasks a run covers: `only` by id, else the quick pair, else every task that is a cell. */
export function pickTasks(all: LoadedTask[], opts: { quick: boolean; only?: string[] }) {
  const unknown = (opts.only ?? []).filter((id) => !all.some((t) => t.spec.id === id));
  if (opts.only?.length === 0 || unknown.length > 0) {
    throw new Error(
      `--tasks takes task ids separated by commas${unknown.length > 0 ? `, and names no task ${unknown.join(", ")}` : ""}; the tasks are ${all.map((t) => t.spec.id).join(", ")}`,
    );
  }
  const picked = opts.only ?? (opts.quick ? QUICK_TASKS : null);
  // The second task of a shared-file pair is a goal of its first's cell, not a cell of its own.
  return all.filter((t) => (picked ? picked.includes(t.spec.id) : !secondOfPair(t, all)));
}

/** The other task of `task`'s shared-file pair, when it is one and `all` holds it. */
export function partnerOf(task: LoadedTask, all: readonly LoadedTask[]): LoadedTask | undefined {
  const other = task.spec.sharedWith;
  return other === null ? undefined : all.find((t) => t.spec.id === other);
}

function secondOfPair(task: LoadedTask, all: readonly LoadedTask[]): boolean {
  const other = task.spec.sharedWith;
  return other !== null && all.some((t) => t.spec.id === other && t.spec.id < task.spec.id);
}

export function cellOf(
  task: LoadedTask,
  fault: FaultName = "none",
  profile: Profile = "competent",
  budgetUsd?: number,
): CellSpec {
  return {
    task,
    profile,
    fault,
    seed: SEED,
    horizonHours: HORIZON_HOURS,
    ...(budgetUsd !== undefined ? { budgetUsd } : {}),
  };
}

/**
 * The fault cells: each fault on tasks of its own, in the arms it means something to. A
 * killed runner strikes every arm's second agent job. A lost, duplicated or reordered webhook,
 * a restarted App, a report past its lease or lost with its runner (and re-run by a person),
 * GitHub failing or rate-limiting the App's writes, a person rewriting its status comment and a reviewer approving a head the PR has left
 * strike only a control plane that listens to webhooks and writes through an outbox: B1 and
 * the oracle poll or know, and their runs would be their no-fault runs again. An outsider's
 * planted instruction, obeyed by the `injected` agent, strikes every arm, as do the `stuck`,
 * `flaky`, `dies` and (with a budget) `overspending` agents. An outage of GitHub Actions is
 * played for LoopX and for LoopX without backoff, which it is there to test; the other arms'
 * runs would fail in it too, and are not played. B0, the reference, runs no-fault cells only;
 * an ablation of LoopX runs the cells that test what it lacks, a no-fault one among them when
 * it is listed here (its column joins that cell's row).
 */
export const FAULT_CELLS: readonly {
  task: string;
  fault: FaultName;
  profile?: Profile;
  budgetUsd?: number;
  arms: readonly string[];
}[] = [
  { task: "csv-quoting", fault: "runner-killed", arms: ["b1", "oracle", "loopx"] },
  { task: "utc-date-math", fault: "runner-killed", arms: ["b1", "oracle", "loopx"] },
  { task: "csv-quoting", fault: "webhook-lost", arms: ["loopx"] },
  { task: "utc-date-math", fault: "webhook-lost", arms: ["loopx"] },
  { task: "csv-quoting", fault: "app-restarted", arms: ["loopx"] },
  { task: "utc-date-math", fault: "app-restarted", arms: ["loopx"] },
  { task: "csv-quoting", fault: "webhook-duplicated", arms: ["loopx"] },
  { task: "utc-date-math", fault: "webhook-duplicated", arms: ["loopx"] },
  { task: "csv-quoting", fault: "webhook-reordered", arms: ["loopx"] },
  { task: "utc-date-math", fault: "webhook-reordered", arms: ["loopx"] },
  {
    task: "csv-quoting",
    fault: "lease-expired",
    arms: ["loopx", "loopx-without-leases", "loopx-without-fencing"],
  },
  {
    task: "utc-date-math",
    fault: "lease-expired",
    arms: ["loopx", "loopx-without-leases", "loopx-without-fencing"],
  },
  { task: "csv-quoting", fault: "report-lost", arms: ["loopx", "loopx-without-leases"] },
  { task: "utc-date-math", fault: "report-lost", arms: ["loopx", "loopx-without-leases"] },
  { task: "csv-quoting", fault: "report-rerun", arms: ["loopx", "loopx-without-fencing"] },
  { task: "utc-date-math", fault: "report-rerun", arms: ["loopx", "loopx-without-fencing"] },
  { task: "lru-cache-ttl", fault: "stale-approval", arms: ["loopx", "loopx-without-gates"] },
  { task: "csv-quoting", fault: "sticky-edited", arms: ["loopx"] },
  { task: "utc-date-math", fault: "sticky-edited", arms: ["loopx"] },
  { task: "csv-quoting", fault: "github-5xx", arms: ["loopx"] },
  { task: "utc-date-math", fault: "github-5xx", arms: ["loopx"] },
  { task: "csv-quoting", fault: "github-rate-limited", arms: ["loopx"] },
  { task: "utc-date-math", fault: "github-rate-limited", arms: ["loopx"] },
  { task: "csv-quoting", fault: "actions-outage", arms: ["loopx", "loopx-without-backoff"] },
  { task: "utc-date-math", fault: "actions-outage", arms: ["loopx", "loopx-without-backoff"] },
  {
    task: "csv-quoting",
    fault: "none",
    profile: "injected",
    arms: ["b1", "oracle", "loopx", "loopx-without-gates"],
  },
  // The task whose plan changes a workflow file: LoopX without gates joins its no-fault cell.
  { task: "ini-config", fault: "none", arms: ["loopx-without-gates"] },
  {
    task: "csv-quoting",
    fault: "none",
    profile: "stuck",
    arms: ["b1", "oracle", "loopx", "loopx-without-backoff"],
  },
  { task: "csv-quoting", fault: "none", profile: "flaky", arms: ["b1", "oracle", "loopx"] },
  { task: "utc-date-math", fault: "none", profile: "dies", arms: ["b1", "oracle", "loopx"] },
  {
    task: "csv-quoting",
    fault: "none",
    profile: "overspending",
    budgetUsd: 3,
    arms: ["b1", "oracle", "loopx", "loopx-without-budgets"],
  },
];

export function cellName(cell: CellSpec): string {
  const budget = cell.budgetUsd !== undefined ? ` · budget $${cell.budgetUsd}` : "";
  const goals = cell.partner ? `${cell.task.spec.id} + ${cell.partner.spec.id}` : cell.task.spec.id;
  return `${goals} · ${cell.profile} · ${cell.fault}${budget}`;
}

/** A pair's agent keeps one notes file per objective, so two goals' notes never collide. */
export function skillsOf(cell: CellSpec): { skill: Skill; partnerSkill?: Skill } {
  if (!cell.partner) return { skill: skillOf(cell.task) };
  const own = (t: LoadedTask) => skillOf(t, { notesPath: `NOTES-${t.spec.id}.md` });
  return { skill: own(cell.task), partnerSkill: own(cell.partner) };
}

/** One arm on one cell in a world of its own; `agent` replaces the scripted one when given. */
export async function playCell(cell: CellSpec, arm: Arm, agent?: Agent): Promise<CellMetrics> {
  const { task } = cell;
  const sandbox = await createSandbox();
  try {
    const world = await startCellWorld({
      sandbox,
      task,
      ...(cell.partner ? { partner: cell.partner } : {}),
      repo: `bench/${task.spec.id}`,
      seed: cell.seed,
    });
    try {
      const run = await arm.run({ world, cell, ...skillsOf(cell), ...(agent ? { agent } : {}) });
      return await cellMetrics(world, run, {
        injected: cell.profile === "injected",
        budgetUsd: cell.budgetUsd ?? null,
      });
    } finally {
      world.close();
    }
  } finally {
    await sandbox.stop();
  }
}
