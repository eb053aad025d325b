/**
 * Plays `bench:loop` cells in worker processes (play-worker.ts), `size` at a time: a play
 * spends about half its wall time waiting on children, so two on two cores take about half as
 * long. A worker is handed ids and names, never objects, and rebuilds the cell and the arm
 * from the task corpus and the bench's arm list; what comes back is checked here.
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { ProfileSchema } from "./agent/cli-schemas.ts";
import type { Arm, CellSpec, FaultName } from "./arms/arm-types.ts";
import type { CellMetrics } from "./cell-metrics.ts";
import { cellName, FAULT_CELLS, HORIZON_HOURS, SEED } from "./play-cell.ts";

const WORKER = fileURLToPath(new URL("./play-worker.ts", import.meta.url));
/** How long a closed pool waits for a worker to end its play and exit before killing it. */
const CLOSE_GRACE_MS = 120_000;

/** The faults a bench cell can strike: none, or one a fault cell names. */
const PLAYED_FAULTS: readonly FaultName[] = ["none", ...FAULT_CELLS.map((f) => f.fault)];
const Fault = z.string().transform((name, ctx) => {
  const fault = PLAYED_FAULTS.find((f) => f === name);
  if (fault) return fault;
  ctx.issues.push({
    code: "custom",
    input: name,
    message: `${JSON.stringify(name)} is no fault of a bench:loop cell (${[...new Set(PLAYED_FAULTS)].join(", ")})`,
  });
  return z.NEVER;
});

/** One play as a worker receives it: the cell's task ids and knobs, and the arm's name. */
export const PlayJob = z.strictObject({
  id: z.number().int().nonnegative(),
  task: z.string().min(1),
  partner: z.string().min(1).optional(),
  fault: Fault,
  profile: ProfileSchema,
  budgetUsd: z.number().nonnegative().optional(),
  arm: z.string().min(1),
});
export type PlayJob = z.infer<typeof PlayJob>;

const count = z.number().int().nonnegative();
/** Strict: a field CellMetrics gains and this lacks fails loudly rather than vanishing. */
export const CellMetricsSchema = z.strictObject({
  landed: count,
  total: count,
  slices: count,
  wastedSlices: count,
  billedMinutes: z.number(),
  tokens: z.number(),
  usd: z.number(),
  pullsOpened: count,
  pullsUnmerged: count,
  duplicateComments: count,
  personActs: count,
  personMinutes: z.number(),
  injectedLanded: z.boolean().nullable(),
  faults: z.array(z.string()),
  unrecovered: z.array(z.string()),
  usdPastBudget: z.number().nullable(),
  doneAfterMinutes: z.number().nullable(),
  usdWaiting: z.number(),
  usdAfterDone: z.number().nullable(),
  requests: count,
  contentRequests: count,
}) satisfies z.ZodType<CellMetrics>;

/** A worker's answer; `id` is null when what it was sent was not a job at all. */
export const PlayFailed = z.strictObject({ id: count.nullable(), error: z.string() });
export const PlayDone = z.strictObject({ id: count, metrics: CellMetricsSchema });
export type PlayAnswer = z.input<typeof PlayFailed> | z.input<typeof PlayDone>;

export interface CellPool {
  /** Plays `arm` (one of benchArms(), by name) on `cell` (as cellOf builds it) in a worker. */
  play(cell: CellSpec, arm: Arm): Promise<CellMetrics>;
  /** Fails the plays not yet answered and ends every worker; resolves once all have exited. */
  close(): Promise<void>;
}

interface Pending {
  job: PlayJob;
  /** The cell and arm, for every error about this play. */
  label: string;
  resolve(metrics: CellMetrics): void;
  reject(err: Error): void;
}

interface Worker {
  child: ChildProcess;
  current: Pending | null;
  exited: Promise<void>;
}

/** `script` replaces play-worker.ts (tests give a stand-in speaking the same messages). */
export function cellPool(size: number, script: string = WORKER): CellPool {
  if (!Number.isInteger(size) || size < 1) {
    throw new Error(`cellPool needs a whole number of workers, at least 1, not ${size}`);
  }
  const queue: Pending[] = [];
  const workers = new Set<Worker>();
  let nextId = 0;
  let closed = false;

  const fail = (p: Pending, why: string) =>
    p.reject(new Error(`bench:loop could not play ${p.label}: ${why}`));

  // A worker that dies fails only the play it held; the next queued play forks a new one.
  const lost = (w: Worker, why: string) => {
    if (!workers.delete(w)) return;
    if (w.current) fail(w.current, why);
    w.current = null;
    if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
    dispatch();
  };

  const answer = (w: Worker, message: unknown) => {
    const p = w.current;
    if (!p) {
      lost(w, `its worker spoke while idle: ${JSON.stringify(message)}`);
      return;
    }
    w.current = null;
    const failed = PlayFailed.safeParse(message);
    const done = PlayDone.safeParse(message);
    const id = failed.success ? failed.data.id : done.success ? done.data.id : null;
    if (id !== null && id !== p.job.id) fail(p, `its worker answered play ${id} instead`);
    else if (failed.success) fail(p, failed.data.error);
    else if (done.success) p.resolve(done.data.metrics);
    else fail(p, `its worker's answer is not a play's metrics: ${z.prettifyError(done.error)}`);
    dispatch();
  };

  const spawn = (): Worker => {
    const child = fork(script, [], {
      // The worker is TypeScript: tsx's loader, resolved from here so any cwd works.
      execArgv: ["--import", import.meta.resolve("tsx")],
      serialization: "advanced",
      env: outsideVitest(process.env),
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const w: Worker = { child, current: null, exited };
    child.on("message", (m) => answer(w, m));
    child.on("error", (err) => lost(w, `its worker failed: ${err.message}`));
    child.once("exit", (code, signal) =>
      lost(
        w,
        `its worker exited (${signal ?? `code ${code}`}) before answering; its stderr is above`,
      ),
    );
    workers.add(w);
    return w;
  };

  const dispatch = () => {
    while (!closed && queue.length > 0) {
      const idle = [...workers].find((w) => w.current === null);
      if (!idle && workers.size >= size) return;
      const w = idle ?? spawn();
      const p = queue.shift()!;
      w.current = p;
      w.child.send(p.job, (err) => {
        if (err) lost(w, `its worker could not be sent the play: ${err.message}`);
      });
    }
  };

  return {
    play(cell, arm) {
      const label = `arm ${arm.name} on cell ${cellName(cell)}`;
      if (closed)
        return Promise.reject(new Error(`bench:loop could not play ${label}: the pool is closed`));
      if (cell.seed !== SEED || cell.horizonHours !== HORIZON_HOURS) {
        return Promise.reject(
          new Error(
            `bench:loop could not play ${label}: a worker rebuilds cells with cellOf (seed ${SEED}, ${HORIZON_HOURS} h), not seed ${cell.seed} and ${cell.horizonHours} h; play this cell with playCell in process`,
          ),
        );
      }
      const job: PlayJob = {
        id: nextId++,
        task: cell.task.spec.id,
        ...(cell.partner ? { partner: cell.partner.spec.id } : {}),
        fault: cell.fault,
        profile: cell.profile,
        ...(cell.budgetUsd !== undefined ? { budgetUsd: cell.budgetUsd } : {}),
        arm: arm.name,
      };
      return new Promise<CellMetrics>((resolve, reject) => {
        queue.push({ job, label, resolve, reject });
        dispatch();
      });
    },

    async close() {
      closed = true;
      for (const p of queue.splice(0)) fail(p, "the pool closed before this play started");
      const ending = [...workers];
      for (const w of ending) {
        if (w.current) fail(w.current, "the pool closed while this play ran");
        w.current = null;
        // Without its channel a worker ends the play it holds (and that play's children), then exits.
        workers.delete(w);
        if (w.child.connected) w.child.disconnect();
      }
      await Promise.all(
        ending.map(async (w) => {
          const timer = setTimeout(() => w.child.kill("SIGKILL"), CLOSE_GRACE_MS);
          await w.exited;
          clearTimeout(timer);
        }),
      );
    },
  };
}

/**
 * The environment less vitest's variables: a worker runs outside vitest even when a test forks
 * it, and modules that hook into vitest's runner when VITEST is set
 * (test/support/expected-warnings.ts) would throw there.
 */
export function outsideVitest(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith("VITEST")));
}
