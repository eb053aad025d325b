/**
 * The plain workflow loops of `bench:loop` on the one model of GitHub: B1, the committed
 * recipe (one work branch, NOTES.md, a DONE stop), and B0, the stateless cron reference (a
 * fresh main and a new PR every firing). Each cell runs 72 simulated hours in seconds; what is
 * asserted is what the recipes' rules imply, so a change to the world's latencies keeps them.
 */
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Arm, ArmRun } from "../../bench/loop/arms/arm-types.ts";
import { b0Arm } from "../../bench/loop/arms/b0-arm.ts";
import { loadRecipe } from "../../bench/loop/arms/b1/b1-recipe.ts";
import { b1Arm } from "../../bench/loop/arms/b1-arm.ts";
import { billedMinutes, SLICE_MINUTES, usdOf } from "../../bench/loop/arms/billing.ts";
import { firingsBetween, nextFiring } from "../../bench/loop/arms/plain-loop/schedule.ts";
import { skillOf } from "../../bench/loop/skill-of.ts";
import { type LoadedTask, loadTasks } from "../../bench/loop/tasks/load-tasks.ts";
import { type CellWorld, startCellWorld } from "../../bench/loop/world/cell-world.ts";
import { RepoRest } from "../../bench/loop/world/rest.ts";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";

const HORIZON_HOURS = 72;
const HOUR = 3_600_000;
const tasks = await loadTasks();
const taskNamed = (id: string): LoadedTask => {
  const task = tasks.find((t) => t.spec.id === id);
  if (!task) throw new Error(`no task ${id} in bench/loop/tasks`);
  return task;
};

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

interface Cell {
  world: CellWorld;
  run: ArmRun;
  task: LoadedTask;
  startedAt: number;
}

async function runCell(arm: Arm, id: string, repo: string, seed: number): Promise<Cell> {
  const task = taskNamed(id);
  const world = await startCellWorld({ sandbox, task, repo, seed });
  const startedAt = sandbox.clock.now();
  const run = await arm.run({
    world,
    cell: { task, profile: "competent", fault: "none", seed, horizonHours: HORIZON_HOURS },
    skill: skillOf(task),
  });
  return { world, run, task, startedAt };
}

const PullRecord = z.object({
  number: z.number().int(),
  head: z.object({ ref: z.string() }),
  user: z.object({ login: z.string() }),
  created_at: z.string(),
  closed_at: z.string().nullable(),
});

async function pullsOf(world: CellWorld) {
  const rest = new RepoRest(sandbox.url, world.repo, world.token("maintainer"));
  return rest.call("GET", "/pulls?state=all&per_page=100", z.array(PullRecord));
}

/** Authors of main's first-parent history: who put commits on main directly. */
function mainAuthors(world: CellWorld): string[] {
  const out = execFileSync("git", ["log", "--first-parent", "--format=%an", "refs/heads/main"], {
    env: { PATH: process.env.PATH, GIT_DIR: sandbox.gitDir(world.repo), GIT_CONFIG_NOSYSTEM: "1" },
    encoding: "utf8",
  });
  return [...new Set(out.trim().split("\n"))];
}

function expectWholeMinutes(run: ArmRun) {
  expect(run.jobs.length).toBeGreaterThan(0);
  for (const job of run.jobs) {
    expect(Number.isInteger(job.minutes), JSON.stringify(job)).toBe(true);
    expect(job.minutes).toBeGreaterThanOrEqual(1);
  }
}

const skillSlices = (task: LoadedTask) =>
  skillOf(task).plan.reduce((sum, todo) => sum + todo.slices, 0);

describe("billing", () => {
  it("bills whole minutes per job, at least one, and prices minutes and tokens", () => {
    expect([0, 0.2, 1, 1.01, 11.5, 12].map(billedMinutes)).toEqual([1, 1, 1, 2, 12, 12]);
    expect(() => billedMinutes(-1)).toThrow(/non-negative/);
    expect(usdOf({ runnerMinutes: 10, tokens: 0 })).toBeCloseTo(0.08);
    expect(usdOf({ runnerMinutes: 0, tokens: 1_000_000 })).toBeCloseTo(3);
  });

  it("finds the recipe's firings on the simulated clock", () => {
    const { cron } = loadRecipe();
    const start = Date.UTC(2026, 0, 5, 9, 0, 0);
    expect(nextFiring(cron, start, start + HOUR)).toBe(start + 17 * 60_000);
    expect(nextFiring(cron, start + 17 * 60_000, start + HOUR)).toBe(start + 17 * 60_000);
    expect(nextFiring(cron, start + 18 * 60_000, start + HOUR)).toBeNull();
    // A 3-hour run overlaps three firings (and GitHub keeps one of them pending).
    expect(firingsBetween(cron, start + 17 * 60_000, start + 3 * HOUR + 17 * 60_000)).toBe(2);
  });
});

describe("B1 (the committed recipe)", () => {
  it("lands a plain task from one branch and one PR at a time, then stops on DONE", async () => {
    const { world, run, task, startedAt } = await runCell(
      b1Arm(),
      "csv-quoting",
      "bench/b1-csv",
      1,
    );
    const recipe = loadRecipe();
    expect(await world.landed()).toEqual(task.spec.todos.map((t) => t.key));

    // DONE stopped it: the run that found it was a short skip job, and no agent ran after.
    expect(run.stoppedAt).not.toBeNull();
    const stoppedAt = run.stoppedAt ?? Number.NaN;
    expect(stoppedAt).toBeLessThan(startedAt + HORIZON_HOURS * HOUR);
    expect(run.jobs.find((j) => j.at === stoppedAt)?.kind).toBe("skip");
    expect(run.slices.every((s) => s.at < stoppedAt)).toBe(true);
    const notes = (await world.branchTree(recipe.branch)).get(recipe.progressFile) ?? "";
    expect(notes.split("\n")).toContain(recipe.doneMarker);

    // One work branch: every PR is the bot's, from agent/work, and never two open at once.
    const pulls = (await pullsOf(world)).sort((a, b) => a.number - b.number);
    expect(pulls.map((p) => p.number)).toEqual(run.pullsOpened);
    for (const p of pulls) {
      expect(p).toMatchObject({
        head: { ref: recipe.branch },
        user: { login: "b1-agent-loop[bot]" },
      });
      expect(p.closed_at).not.toBeNull();
    }
    for (let i = 1; i < pulls.length; i++) {
      expect(Date.parse(pulls[i]!.created_at)).toBeGreaterThanOrEqual(
        Date.parse(pulls[i - 1]!.closed_at ?? ""),
      );
    }
    // Nothing reached main except through a maintainer's merge.
    expect(mainAuthors(world)).not.toContain("b1-agent-loop[bot]");

    expectWholeMinutes(run);
    expect(run.slices.length).toBeGreaterThanOrEqual(skillSlices(task));
    // The prompt quotes NOTES.md, whose `done:` lines name finished todos: memory, not an
    // assignment, so no todo is worked past its slices.
    for (const todo of skillOf(task).plan) {
      const worked = run.slices.filter((s) => s.progressed && s.todo === todo.title);
      expect(worked.length, todo.title).toBeLessThanOrEqual(todo.slices);
    }
    expect(run.jobs.filter((j) => j.kind === "agent")).toHaveLength(run.slices.length);
    for (const j of run.jobs.filter((j) => j.kind === "agent")) {
      expect(j.minutes).toBeGreaterThan(SLICE_MINUTES);
    }
    world.close();
  }, 60_000);

  it("answers both change requests on lru-cache-ttl and lands it when they come before DONE", async () => {
    const { world, run, task } = await runCell(b1Arm(), "lru-cache-ttl", "bench/b1-lru-4", 4);
    expect(await world.landed()).toEqual(task.spec.todos.map((t) => t.key));
    // Heads without the reviewed todo's work are approved; the two rounds come on the PR
    // that carries it, and the last word is an approval.
    const all = world.person.acts().filter((a) => a.kind === "review" && a.outcome === "done");
    const first = all.findIndex((r) => r.detail.startsWith("requested"));
    const reviews = all.slice(first);
    expect(reviews.map((r) => r.detail.split(" ")[0])).toEqual([
      "requested",
      "requested",
      "approved",
    ]);
    // Each request was answered: an agent run after it pushed before the next review, and
    // NOTES.md on the branch records both rounds as answered.
    for (let i = 0; i < 2; i++) {
      const [asked, next] = [reviews[i]!.at, reviews[i + 1]!.at];
      const answers = run.slices.filter((s) => s.at > asked && s.at < next);
      expect(answers.some((s) => s.pushedFiles.length > 0)).toBe(true);
    }
    const notes = (await world.branchTree(loadRecipe().branch)).get("NOTES.md") ?? "";
    const rounds = [...notes.matchAll(/^review-fixed: .+ (\d+)$/gm)].map((m) => Number(m[1]));
    expect(Math.max(...rounds)).toBe(2);
    expect(run.stoppedAt).not.toBeNull();
    expectWholeMinutes(run);
    world.close();
  }, 60_000);

  it("answers a change request that arrives after DONE, then stops and bills skips to the horizon", async () => {
    // Seed 1: the reviewer's second round lands on the commit that wrote DONE.
    const { world, run, task, startedAt } = await runCell(
      b1Arm(),
      "lru-cache-ttl",
      "bench/b1-lru-1",
      1,
    );
    expect(task.spec.review.changeRequests).toBe(2);
    const notes = (await world.branchTree(loadRecipe().branch)).get("NOTES.md") ?? "";
    const doneLine = notes.split("\n").indexOf("DONE");
    const secondRound = notes.split("\n").findIndex((l) => /^review-fixed: .+ 2$/.test(l));
    // The answer to the second round came after DONE was written, and was still given.
    expect(doneLine).toBeGreaterThanOrEqual(0);
    expect(secondRound).toBeGreaterThan(doneLine);
    expect(await world.landed()).toEqual(task.todoOrder());
    // Stopped for good once nothing awaited an answer: skip jobs only, one per firing left.
    const stoppedAt = run.stoppedAt ?? Number.NaN;
    expect(run.slices.every((s) => s.at < stoppedAt)).toBe(true);
    const after = run.jobs.filter((j) => j.at >= stoppedAt);
    expect(after.every((j) => j.kind === "skip" && j.minutes === 1)).toBe(true);
    expect(after.length).toBe(
      firingsBetween(loadRecipe().cron, stoppedAt, startedAt + HORIZON_HOURS * HOUR) + 1,
    );
    world.close();
  }, 60_000);
});

describe("B0 (stateless cron)", () => {
  it("opens a new PR from a new branch every run that changed anything, more than it lands", async () => {
    const { world, run } = await runCell(b0Arm(), "csv-quoting", "bench/b0-csv", 1);
    const landed = await world.landed();
    expect(landed.length).toBeGreaterThan(0);
    // Every landing needs a PR of its own, and the run that first writes DONE on a fresh main
    // opens one more that lands nothing; until a merge reaches main, each firing redoes it.
    expect(run.pullsOpened.length).toBeGreaterThan(landed.length);
    const pulls = await pullsOf(world);
    const branches = pulls.map((p) => p.head.ref);
    expect(new Set(branches).size).toBe(branches.length);
    expect(branches.every((b) => /^cron\/\d+$/.test(b))).toBe(true);
    expect(mainAuthors(world)).not.toContain("b0-cron-agent[bot]");
    // No stop of its own: an agent job on every firing of the hour to the horizon.
    expect(run.stoppedAt).toBeNull();
    expect(run.jobs.every((j) => j.kind === "agent")).toBe(true);
    expect(run.jobs).toHaveLength(HORIZON_HOURS);
    expectWholeMinutes(run);
    world.close();
  }, 60_000);
});
