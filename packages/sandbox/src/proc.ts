import { spawn } from "node:child_process";

export interface ProcResult {
  code: number | null;
  /** stdout and stderr interleaved as they arrived. */
  output: string;
  timedOut: boolean;
  cancelled: boolean;
}

/**
 * How the runner stops a cancelled step (Actions reference, "Workflow cancellation", step 4):
 * SIGINT to the step's entry process, SIGTERM if it is still running 7500 ms later, and the
 * whole process tree killed 2500 ms after that.
 */
export const CANCEL_TERM_AFTER_MS = 7_500;
export const CANCEL_KILL_AFTER_MS = 2_500;

/**
 * Runs a child process in its own process group, so a timeout, a cancel or a force-cancel
 * kills everything it started (a hanging `npm test` and its children), as a runner does.
 * `signal` cancels gracefully (SIGINT, SIGTERM, then the tree); `force` kills the tree at once.
 */
export function runProcess(options: {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  signal?: AbortSignal;
  force?: AbortSignal;
  /** Run as this user (the sandbox's non-root `runner`). */
  user?: { uid: number; gid: number };
  onOutput?: (chunk: string) => void;
}): Promise<ProcResult> {
  return new Promise((resolve) => {
    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      ...(options.user ? { uid: options.user.uid, gid: options.user.gid } : {}),
    });
    let output = "";
    let timedOut = false;
    let cancelled = false;
    let exited = false;
    const timers: NodeJS.Timeout[] = [];
    const send = (signal: NodeJS.Signals, tree: boolean) => {
      // Once the entry process is gone only its group can still be signalled.
      if (child.pid === undefined || (exited && !tree)) return;
      try {
        process.kill(tree ? -child.pid : child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    const killTree = () => send("SIGKILL", true);
    const collect = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      output += text;
      options.onOutput?.(text);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    if (options.timeoutMs !== undefined) {
      timers.push(
        setTimeout(() => {
          timedOut = true;
          killTree();
        }, options.timeoutMs),
      );
    }
    const onAbort = () => {
      if (cancelled) return;
      cancelled = true;
      send("SIGINT", false);
      timers.push(
        setTimeout(() => {
          send("SIGTERM", false);
          timers.push(setTimeout(killTree, CANCEL_KILL_AFTER_MS));
        }, CANCEL_TERM_AFTER_MS),
      );
    };
    const onForce = () => {
      cancelled = true;
      killTree();
    };
    if (options.force?.aborted) onForce();
    else if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    options.force?.addEventListener("abort", onForce, { once: true });
    const finish = (code: number | null) => {
      for (const t of timers) clearTimeout(t);
      options.signal?.removeEventListener("abort", onAbort);
      options.force?.removeEventListener("abort", onForce);
      resolve({ code, output, timedOut, cancelled });
    };
    child.on("exit", () => {
      exited = true;
    });
    child.on("error", (error) => {
      output += `${error.message}\n`;
      finish(127);
    });
    child.on("close", (code) => finish(code));
  });
}
