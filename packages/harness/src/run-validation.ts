import { redactSecrets } from "@loopx/core";
import type { Spawner } from "./jail/open-jail.ts";
import { runBounded } from "./run-bounded.ts";
import type { ValidationRun } from "./slice-types.ts";

const VALIDATION_TAIL_BYTES = 16 * 1024;
const SUMMARY_CHARS = 2000;

/**
 * Runs the goal's validation command in a work tree. Exit 0 passes; anything else, including
 * a timeout, fails. Its output is evidence, so it is capped and redacted.
 */
export async function runValidation(opts: {
  command: string;
  workdir: string;
  env: Record<string, string>;
  timeoutMs: number;
  secrets: string[];
  signal?: AbortSignal;
  /** Where it runs: a fresh jail's spawner (the action), or the host (adapter tests). */
  spawner?: Spawner;
}): Promise<ValidationRun> {
  const run = await runBounded({
    command: "sh",
    args: ["-c", opts.command],
    cwd: opts.workdir,
    env: opts.env,
    wallMs: opts.timeoutMs,
    // A test suite may be silent for long stretches: only the wall clock bounds it.
    idleMs: opts.timeoutMs + 1000,
    outputCapBytes: VALIDATION_TAIL_BYTES,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.spawner ? { spawner: opts.spawner } : {}),
  });
  const outputTail = redactSecrets(run.tail, opts.secrets);
  const timedOut = run.stop === "wall" || run.stop === "idle";
  const passed = run.stop === "exited" && run.exitCode === 0;
  const head = timedOut
    ? `validation timed out after ${opts.timeoutMs} ms`
    : run.spawnError
      ? run.spawnError
      : `exit ${run.exitCode ?? run.signal ?? "?"}`;
  const summary = `${head}\n${outputTail.slice(-(SUMMARY_CHARS - head.length - 1))}`.slice(
    0,
    SUMMARY_CHARS,
  );
  return {
    command: opts.command.slice(0, 500),
    exitCode: run.exitCode,
    passed,
    summary,
    timedOut,
    durationMs: run.durationMs,
    outputTail,
  };
}
