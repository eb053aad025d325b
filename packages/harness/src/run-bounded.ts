import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import type { Spawned, Spawner } from "./jail/open-jail.ts";
import { killMarked } from "./kill-marked.ts";
import { LineSplitter } from "./line-splitter.ts";
import { OutputTail } from "./output-tail.ts";
import type { StopReason } from "./slice-types.ts";

export interface BoundedOptions {
  command: string;
  args: string[];
  cwd: string;
  /** The complete environment: nothing is inherited implicitly. */
  env: Record<string, string>;
  wallMs: number;
  idleMs: number;
  killGraceMs?: number;
  outputCapBytes?: number;
  signal?: AbortSignal;
  /** How the process is started and stopped; a jail's spawner confines it (default: on the host). */
  spawner?: Spawner;
  /** Each stdout/stderr line; call `stop` to end the run for a limit the caller tracks. */
  onLine?: (line: string, stream: "stdout" | "stderr", stop: (reason: StopReason) => void) => void;
}

export interface BoundedRun {
  stop: StopReason;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  durationMs: number;
  pid: number | null;
  tail: string;
  totalBytes: number;
  truncated: boolean;
  spawnError: string | null;
}

/** Every process of a run carries this variable, so stragglers in other sessions can be found. */
export const RUN_MARKER = "LOOPX_RUN_ID";
export const DEFAULT_OUTPUT_CAP = 64 * 1024;
const DEFAULT_KILL_GRACE_MS = 2000;
/** After the leader exits, how long to wait for pipes held by stragglers before giving up. */
const DRAIN_MS = 1000;

/**
 * Runs one process in its own process group and stops the whole group on the first limit hit
 * (wall clock, idle output, caller's stop, abort): SIGTERM, then SIGKILL after a grace period.
 * Descendants that left the group (new sessions, orphaned background jobs) are found by an
 * environment marker and get the same signals. When the leader exits by itself, leftovers are
 * killed too, so a slice never outlives its tick.
 */
export function runBounded(opts: BoundedOptions): Promise<BoundedRun> {
  const started = Date.now();
  const tail = new OutputTail(opts.outputCapBytes ?? DEFAULT_OUTPUT_CAP);
  const grace = opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS;

  return new Promise<BoundedRun>((resolve) => {
    let stop: StopReason | null = null;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    const spawned = (opts.spawner ?? hostSpawner)(opts.command, opts.args, {
      cwd: opts.cwd,
      env: opts.env,
    });
    const { child } = spawned;
    const pid = child.pid ?? null;

    const finish = (spawnError: string | null) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      clearTimeout(idleTimer);
      opts.signal?.removeEventListener("abort", onAbort);
      splitters.stdout.end();
      splitters.stderr.end();
      resolve({
        stop: spawnError ? "spawn_failed" : (stop ?? "exited"),
        exitCode,
        signal: exitSignal,
        durationMs: Date.now() - started,
        pid,
        tail: spawnError ? `${tail.text()}${spawnError}\n` : tail.text(),
        totalBytes: tail.total,
        truncated: tail.truncated,
        spawnError,
      });
    };

    const killGroup = (sig: NodeJS.Signals) => {
      if (sig === "SIGKILL") spawned.kill();
      else spawned.terminate();
    };

    const requestStop = (reason: StopReason) => {
      if (stop !== null || settled) return;
      stop = reason;
      killGroup("SIGTERM");
      timers.push(setTimeout(() => killGroup("SIGKILL"), grace));
    };

    let idleTimer = setTimeout(() => requestStop("idle"), opts.idleMs);
    const touch = () => {
      clearTimeout(idleTimer);
      if (stop === null) idleTimer = setTimeout(() => requestStop("idle"), opts.idleMs);
    };
    timers.push(setTimeout(() => requestStop("wall"), opts.wallMs));
    const onAbort = () => requestStop("aborted");
    if (opts.signal?.aborted) queueMicrotask(onAbort);
    else opts.signal?.addEventListener("abort", onAbort, { once: true });

    const splitters = {
      stdout: new LineSplitter((line) => opts.onLine?.(line, "stdout", requestStop)),
      stderr: new LineSplitter((line) => opts.onLine?.(line, "stderr", requestStop)),
    };
    for (const stream of ["stdout", "stderr"] as const) {
      spawned[stream].on("data", (chunk: Buffer) => {
        touch();
        tail.push(chunk);
        splitters[stream].push(chunk);
      });
    }

    child.on("error", (err) => {
      // Spawn failures (ENOENT, EACCES) never produce an exit event.
      if (exitCode === null && exitSignal === null) {
        finish(`could not start ${opts.command}: ${err.message}`);
      }
    });
    child.on("exit", (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      clearTimeout(idleTimer);
      killGroup("SIGKILL");
      timers.push(setTimeout(() => finish(null), DRAIN_MS));
    });
    child.on("close", () => finish(null));
  });
}

/**
 * On the host, unconfined (adapter tests, trusted commands): its own process group, and an
 * environment marker so that descendants in sessions of their own are found and signalled too.
 */
export const hostSpawner: Spawner = (command, args, options): Spawned => {
  const marker = randomUUID();
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...options.env, [RUN_MARKER]: marker },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const signal = (sig: NodeJS.Signals) => {
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, sig);
      } catch {
        // ESRCH: the group is already gone.
      }
    }
    killMarked(RUN_MARKER, marker, sig);
  };
  return {
    child,
    stdout: child.stdout,
    stderr: child.stderr,
    terminate: () => signal("SIGTERM"),
    kill: () => signal("SIGKILL"),
  };
};
