/**
 * bench:loop plays its cells in worker processes: the table keeps the list's order whatever
 * order plays end in, the pool runs at most `size` plays at once and all of them, a play that
 * fails or whose worker dies fails with its cell and arm named, and a worker's play equals
 * the same play in process.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Arm, CellSpec } from "../../bench/loop/arms/arm-types.ts";
import { b1Arm } from "../../bench/loop/arms/b1-arm.ts";
import type { CellMetrics } from "../../bench/loop/cell-metrics.ts";
import { cellPool, outsideVitest, PlayJob } from "../../bench/loop/cell-pool.ts";
import { cellName, cellOf, FAULT_CELLS, pickTasks, playCell } from "../../bench/loop/play-cell.ts";
import { benchLoop, FlagError, jobsFlag } from "../../bench/loop/run-loop.ts";
import { type LoadedTask, loadTasks } from "../../bench/loop/tasks/load-tasks.ts";
import { noMetrics } from "./no-metrics.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FAKE_WORKER = fileURLToPath(new URL("./fake-play-worker.ts", import.meta.url));

const arm = (name: string, extra: Partial<Arm> = {}): Arm => ({
  name,
  ...extra,
  run: () => Promise.reject(new Error("the stand-in plays no world")),
});

const ARMS = [
  arm("b0"),
  arm("b1"),
  arm("oracle", { pairs: true }),
  arm("loopx", { pairs: true }),
  arm("loopx-without-budgets", { pairs: true, ablates: "budgets" }),
  arm("loopx-without-backoff", { pairs: true, ablates: "backoff" }),
  arm("loopx-without-gates", { pairs: true, ablates: "gates" }),
  arm("loopx-without-leases", { pairs: true, ablates: "leases" }),
];

/** Metrics that say which play made them. */
const metricsOf = (cell: CellSpec, a: Arm): CellMetrics =>
  noMetrics({ faults: [cellName(cell), a.name] });

const columns = (bench: Awaited<ReturnType<typeof benchLoop>>) =>
  bench.results.map((r) => [r.cell, [...r.byArm.keys()]]);

let tasks: LoadedTask[];
beforeAll(async () => {
  tasks = await loadTasks();
});
const task = (id: string) => tasks.find((t) => t.spec.id === id)!;
/** A bench run from a shell: vitest's variables would arm its test-only hooks. */
const pidGone = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

describe("benchLoop with plays that end out of order", () => {
  it("asks for every play at once and keeps the one-at-a-time run's rows and order", async () => {
    const asked: string[] = [];
    const oneByOne = await benchLoop({
      quick: false,
      arms: ARMS,
      play: async (cell, a) => {
        asked.push(`${cellName(cell)} / ${a.name}`);
        return metricsOf(cell, a);
      },
    });

    const waiting: { key: string; answer: () => void }[] = [];
    const ended: string[] = [];
    const running = benchLoop({
      quick: false,
      arms: ARMS,
      play: (cell, a) =>
        new Promise((resolve) => {
          const key = `${cellName(cell)} / ${a.name}`;
          waiting.push({
            key,
            answer: () => {
              ended.push(key);
              resolve(metricsOf(cell, a));
            },
          });
        }),
    });
    // No play is answered until all of them were asked for: none waits on another.
    while (waiting.length < asked.length) await new Promise((r) => setTimeout(r, 10));
    expect(waiting.map((w) => w.key)).toEqual(asked);
    for (const w of [...waiting].reverse()) w.answer();
    const reversed = await running;

    expect(ended).toEqual([...asked].reverse());
    expect(columns(reversed)).toEqual(columns(oneByOne));
    expect(reversed.results).toEqual(oneByOne.results);
    expect(reversed.arms).toEqual(oneByOne.arms);
    for (const r of reversed.results) {
      for (const [name, m] of r.byArm) expect(m.faults).toEqual([r.cell, name]);
    }
    // The rows follow the cell list: the tasks' own cells, then the fault cells in order.
    const own = pickTasks(tasks, { quick: false }).map((t) => t.spec.id);
    const first = reversed.results.slice(0, own.length).map((r) => r.task);
    expect(first).toEqual(own);
    const faulted = reversed.results.filter((r) => r.fault !== "none").map((r) => r.cell);
    const listed = FAULT_CELLS.filter((f) => f.fault !== "none").map((f) =>
      cellName(cellOf(task(f.task), f.fault, f.profile, f.budgetUsd)),
    );
    expect(faulted).toEqual(listed);
  });
});

describe("cellPool", () => {
  it.each([1, 2])("plays every play, at most %i at once", async (size) => {
    const pool = cellPool(size, FAKE_WORKER);
    const cells = ["csv-quoting", "lru-cache-ttl", "utc-date-math", "ini-config"].map((id) =>
      cellOf(task(id)),
    );
    const plays = cells.flatMap((cell) => [arm("b1"), arm("loopx")].map((a) => ({ cell, a })));
    try {
      const got = await Promise.all(plays.map((p) => pool.play(p.cell, p.a)));
      expect(got.map((m) => m.faults)).toEqual(
        plays.map((p) => [p.cell.task.spec.id, "none", "competent", p.a.name]),
      );
      // The fake worker reports its pid and when the play started and ended.
      expect(new Set(got.map((m) => m.personActs)).size).toBe(size);
      const edges = got
        .flatMap((m) => [
          { at: m.billedMinutes, step: 1 },
          { at: m.personMinutes, step: -1 },
        ])
        .sort((x, y) => x.at - y.at || x.step - y.step);
      let now = 0;
      let most = 0;
      for (const e of edges) {
        now += e.step;
        most = Math.max(most, now);
      }
      expect(most).toBe(size);
    } finally {
      await pool.close();
    }
  });

  it("fails a play that errs or whose worker dies with its cell and arm named, and plays on", async () => {
    const pool = cellPool(1, FAKE_WORKER);
    const cell = cellOf(task("csv-quoting"));
    const names = ["b1", "boom", "die", "garbage", "loopx"];
    const settled = await Promise.allSettled(names.map((n) => pool.play(cell, arm(n))));
    await pool.close();
    const [first, boom, die, garbage, last] = settled;
    expect(first?.status).toBe("fulfilled");
    expect(last?.status).toBe("fulfilled");
    const reason = (s: PromiseSettledResult<CellMetrics> | undefined) =>
      s?.status === "rejected" && s.reason instanceof Error ? s.reason.message : "";
    expect(reason(boom)).toMatch(
      /^bench:loop could not play arm boom on cell csv-quoting · competent · none: Error: boom went off\n {4}at fakePlay/,
    );
    expect(reason(die)).toMatch(
      /arm die on cell csv-quoting · competent · none: its worker exited \(code 3\) before answering/,
    );
    expect(reason(garbage)).toMatch(/arm garbage on cell .*not a play's metrics.*landed/s);
    // The worker that died was replaced; the pool ended every worker it forked.
    const pids = [first, last].map((s) => (s?.status === "fulfilled" ? s.value.personActs : 0));
    expect(pids[0]).not.toBe(pids[1]);
    for (const pid of pids) expect(pidGone(pid)).toBe(true);
  });

  it("fails the plays a close cuts off, and closes", async () => {
    const pool = cellPool(1, FAKE_WORKER);
    const cell = cellOf(task("csv-quoting"));
    const plays = Promise.allSettled(["b1", "oracle", "loopx"].map((n) => pool.play(cell, arm(n))));
    await new Promise((r) => setTimeout(r, 50));
    await pool.close();
    const settled = await plays;
    expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(String(settled[2]?.status === "rejected" && settled[2].reason)).toMatch(
      /arm loopx on cell .*: the pool closed before this play started/,
    );
    await expect(pool.play(cell, arm("b1"))).rejects.toThrow(/the pool is closed/);
  });

  it("fails every play, rather than hanging, when no worker can start", async () => {
    const pool = cellPool(2, fileURLToPath(new URL("./no-such-worker.ts", import.meta.url)));
    const cell = cellOf(task("csv-quoting"));
    const plays = ["b1", "oracle", "loopx"].map((n) => pool.play(cell, arm(n)));
    const settled = await Promise.allSettled(plays);
    await pool.close();
    for (const s of settled) {
      expect(s.status === "rejected" && String(s.reason)).toMatch(/its worker exited \(code 1\)/);
    }
  });

  it("hands a worker ids and names it checks: a fault no cell strikes is no job", () => {
    const job = {
      id: 0,
      task: "csv-quoting",
      fault: "runner-killed",
      profile: "competent",
      arm: "b1",
    };
    expect(PlayJob.parse(job)).toEqual(job);
    const wrong = PlayJob.safeParse({ ...job, fault: "meteor-strike" });
    expect(wrong.success ? "" : z.prettifyError(wrong.error)).toMatch(
      /"meteor-strike" is no fault of a bench:loop cell \(none, runner-killed, .*\n.*at fault/,
    );
    expect(PlayJob.safeParse({ ...job, profile: "genius" }).success).toBe(false);
    expect(PlayJob.safeParse({ ...job, cell: {} }).success).toBe(false);
  });

  it("plays a real cell in a worker exactly as in process", async () => {
    const cell = cellOf(task("csv-quoting"));
    const pool = cellPool(1);
    let inWorker: CellMetrics;
    try {
      inWorker = await pool.play(cell, b1Arm());
    } finally {
      await pool.close();
    }
    const inProcess = await playCell(cell, b1Arm());
    // A sandbox's clock starts at the machine's time, and B1's cron fires at set minutes past
    // the hour: two plays started apart can merge at other minutes. All else is equal.
    const { doneAfterMinutes: workerDone, ...worker } = inWorker;
    const { doneAfterMinutes: processDone, ...inThisProcess } = inProcess;
    expect(worker).toEqual(inThisProcess);
    expect(workerDone).not.toBeNull();
    expect(processDone).not.toBeNull();
    expect(inWorker.total).toBeGreaterThan(0);
  }, 90_000);
});

describe("--jobs", () => {
  it("defaults to one play per core and takes a whole number from 1 up", () => {
    expect(jobsFlag(["--quick"], 6)).toBe(6);
    expect(jobsFlag(["--jobs", "3", "--quick"], 6)).toBe(3);
  });

  it.each([["0"], ["x"], ["-1"], ["1.5"], ["--quick"], [undefined]])(
    "refuses --jobs %s, saying what works",
    (value) => {
      const argv = value === undefined ? ["--jobs"] : ["--jobs", value];
      expect(() => jobsFlag(argv, 2)).toThrow(FlagError);
      expect(() => jobsFlag(argv, 2)).toThrow(
        /^--jobs takes how many cells to play at once, a whole number from 1 up \(this machine has 2 cores, the default\), not ".*"; e\.g\. --jobs 2$/,
      );
    },
  );

  it("refuses --jobs beside --real-model, whose trials no pool plays", () => {
    expect(() => jobsFlag(["--real-model", "claude", "--jobs", "2"], 2, true)).toThrow(
      /^--jobs plays the scripted bench's cells in parallel; --real-model plays its trials one at a time/,
    );
    expect(jobsFlag(["--real-model", "claude"], 2, true)).toBe(2);
  });

  it("exits 2 with the message before any cell plays", () => {
    const run = spawnSync(
      `${ROOT}node_modules/.bin/tsx`,
      ["bench/loop/run-loop.ts", "--quick", "--jobs", "0"],
      { cwd: ROOT, env: outsideVitest(process.env), encoding: "utf8", timeout: 60_000 },
    );
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toMatch(/^bench:loop: --jobs takes how many cells to play at once/);
    expect(run.stdout).toBe("");
  });
});
