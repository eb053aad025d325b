import { spawn } from "node:child_process";

export interface ProcResult {
  code: number | null;
  /** stdout and stderr interleaved as they arrived. */
  output: string;
  timedOut: boolean;
  cancelled: boolean;
}

/**
 * Runs a child process in its own process group, so a timeout or a cancel kills everything it
 * started (a hanging `npm test` and its children), as a runner does.
 */
export function runProcess(options: {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  signal?: AbortSignal;
  onOutput?: (chunk: string) => void;
}): Promise<ProcResult> {
  return new Promise((resolve) => {
    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let timedOut = false;
    let cancelled = false;
    const kill = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const collect = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      output += text;
      options.onOutput?.(text);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    const timer =
      options.timeoutMs !== undefined
        ? setTimeout(() => {
            timedOut = true;
            kill();
          }, options.timeoutMs)
        : undefined;
    const onAbort = () => {
      cancelled = true;
      kill();
    };
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const finish = (code: number | null) => {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      resolve({ code, output, timedOut, cancelled });
    };
    child.on("error", (error) => {
      output += `${error.message}\n`;
      finish(127);
    });
    child.on("close", (code) => finish(code));
  });
}
