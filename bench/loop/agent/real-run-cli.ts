/**
 * One run of a model's CLI: stdin closed, its output collected, stopped at a wall-clock limit
 * or when the caller's watcher says so (codex has no turn limit of its own). It runs in its
 * own process group so that stopping it also stops the commands it started.
 */
import { spawn } from "node:child_process";

export interface CliRun {
  code: number | null;
  stdout: string;
  /** The last 2,000 characters: enough to say why it failed. */
  stderrTail: string;
  /** Why we stopped it, or null when it ended by itself. */
  stopped: string | null;
  spawnError: string | null;
}

export function runCli(o: {
  bin: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** Called per stdout line; a reason stops the process. */
  watch?: (line: string) => string | null;
}): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(o.bin, o.args, {
      cwd: o.cwd,
      env: o.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    let partial = "";
    let stopped: string | null = null;
    let spawnError: string | null = null;
    const stop = (why: string) => {
      if (stopped !== null) return;
      stopped = why;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone: nothing left to stop.
      }
    };
    const timer = setTimeout(
      () => stop(`it ran past its ${Math.round(o.timeoutMs / 1000)} s limit`),
      o.timeoutMs,
    );
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (!o.watch) return;
      const lines = (partial + chunk).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        const why = o.watch(line);
        if (why !== null) stop(why);
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    child.on("error", (err) => {
      spawnError = String(err);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderrTail: stderr, stopped, spawnError });
    });
  });
}
