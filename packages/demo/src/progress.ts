/**
 * The demo's terminal output: the current step, the tick count and what is waiting on whom,
 * printed as plain lines (one per change) so a log or CI shows the same as a terminal.
 */
import type { Sandbox } from "@loopx/sandbox";

export type Print = (line: string) => void;

export interface Progress {
  /** A new step begins: `3/9 CI fails on the pull request`. */
  step(title: string): void;
  /** A fact worth a line of its own, under the current step. */
  note(text: string): void;
  /** Called while waiting: prints a line when the tick count or the wait changed. */
  poll(ticks: number, waitingOn: string): void;
  elapsedMs(): number;
}

/** `steps`: how many steps the scenario has (the issue-fix loop's 9 unless it says). */
export function createProgress(print: Print, steps = 9): Progress {
  const started = Date.now();
  let step = 0;
  let last = "";
  const stamp = () => `[${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s]`;
  return {
    step(title) {
      step++;
      last = "";
      print(`${stamp()} ${step}/${steps} ${title}`);
    },
    note(text) {
      print(`${stamp()}       ${text}`);
    },
    poll(ticks, waitingOn) {
      const line = `ticks: ${ticks} · waiting on ${waitingOn}`;
      if (line === last) return;
      last = line;
      print(`${stamp()}       ${line}`);
    },
    elapsedMs: () => Date.now() - started,
  };
}

/**
 * Who the loop is waiting on right now, read from the sandbox: a tick's job (the App's ask,
 * the agent, the report), CI, or — when nothing runs — the step's own answer.
 */
export function whoIsBusy(sandbox: Sandbox, otherwise: string): string {
  const jobs = [...sandbox.store.workflowJobs.values()].filter((j) => j.status === "in_progress");
  const job = jobs.at(-1);
  if (job) {
    const run = sandbox.store.workflowRuns.get(job.runId);
    const what =
      job.key === "agent"
        ? "the agent (the agent job runs the harness)"
        : job.key === "ask"
          ? "the tick's ask job (LoopX picks the todo)"
          : job.key === "report"
            ? "the tick's report job (result, push)"
            : `job ${job.key}`;
    return `${what}${run ? ` — workflow run #${run.runNumber}` : ""}`;
  }
  const checks = [...sandbox.store.checkRuns.values()].filter((c) => c.status !== "completed");
  if (checks.length > 0) return `CI (${checks.map((c) => c.name).join(", ")} running)`;
  return otherwise;
}
