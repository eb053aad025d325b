/**
 * Waiting for the loop: polls a condition while the progress line says who is busy, and
 * when a step does not happen in time, stops with what the goal and the last runs show —
 * the operator's first clues, not just "timed out".
 */
import type { GoalState } from "@loopx/core";
import type { Sandbox } from "@loopx/sandbox";
import { type Progress, whoIsBusy } from "./progress.ts";
import type { Stack } from "./start-stack.ts";

export class StepTimeout extends Error {}
export class Interrupted extends Error {}

const POLL_MS = 200;

export interface Waiter {
  /** The goal's current state (null before the goal exists). */
  state(): Promise<GoalState | null>;
  /**
   * Resolves with the probe's first truthy answer. `waitingOn` says whom the step waits for
   * when no job or CI is running (e.g. "LoopX (the App opens the pull request)").
   */
  until<T>(
    what: string,
    waitingOn: string,
    probe: (
      state: GoalState | null,
    ) => T | null | undefined | false | Promise<T | null | undefined | false>,
    timeoutMs?: number,
  ): Promise<T>;
}

export function createWaiter(
  stack: Stack,
  progress: Progress,
  goalId: () => string | null,
  stepTimeoutMs: number,
  signal?: AbortSignal,
): Waiter {
  const state = async () => {
    const id = goalId();
    return id ? stack.store.loadGoal(id) : null;
  };
  // Each finished tick gets a line: what it worked on, its outcome and its handoff.
  const told = new Set<string>();
  const tellTicks = (s: GoalState | null) => {
    for (const tick of s?.ticks ?? []) {
      if (tick.outcome === null || told.has(tick.id)) continue;
      told.add(tick.id);
      const kind = s?.todos.find((t) => t.key === tick.todo)?.kind ?? "todo";
      const handoff = s?.handoffs.find((h) => h.tickId === tick.id)?.done ?? "";
      progress.note(
        `tick #${tick.number} on ${tick.todo} (${kind}): ${tick.outcome}${handoff ? ` — ${handoff}` : ""}`,
      );
    }
  };
  return {
    state,
    async until(what, waitingOn, probe, timeoutMs = stepTimeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (signal?.aborted) throw new Interrupted("interrupted (Ctrl-C)");
        const s = await state();
        tellTicks(s);
        const answer = await probe(s);
        if (answer) return answer;
        progress.poll(s?.ticks.length ?? 0, whoIsBusy(stack.sandbox, waitingOn));
        if (Date.now() > deadline) {
          throw new StepTimeout(
            `"${what}" did not happen within ${Math.round(timeoutMs / 1000)} s (waiting on ${waitingOn}).\n${diagnose(s, stack.sandbox)}`,
          );
        }
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    },
  };
}

/** What the goal and the sandbox's last runs looked like when a step timed out. */
export function diagnose(state: GoalState | null, sandbox: Sandbox): string {
  const lines: string[] = [];
  if (state) {
    const g = state.goal;
    lines.push(`goal: ${g.status}${g.statusReason ? ` (${g.statusReason})` : ""}`);
    for (const t of state.todos) {
      lines.push(
        `  ${t.key} ${t.kind} ${t.status}${t.blockedReason ? ` (${t.blockedReason})` : ""}: ${t.title}`,
      );
    }
    for (const gate of state.gates) {
      lines.push(
        `  ${gate.key} ${gate.status} [${gate.scopes.join(", ")}]${gate.pr ? ` PR #${gate.pr.number} @${gate.pr.headSha.slice(0, 7)}` : ""}`,
      );
    }
    for (const t of state.ticks.slice(-3)) {
      lines.push(`  tick #${t.number} on ${t.todo}: ${t.outcome ?? "running"}`);
    }
    // What the PR monitor last read: a step waiting on CI or a merge gate stalls on one of these.
    for (const pr of state.pullRequests.filter((p) => p.monitor.watching)) {
      const m = pr.monitor;
      const checks = m.checks.map((c) => `${c.name}=${c.status}`).join(", ") || "none";
      lines.push(
        `  PR #${pr.number} @${pr.headSha.slice(0, 7)}: mergeable ${m.mergeable} (${m.mergeableState}); checks of ${m.checksSha?.slice(0, 7) ?? "no head"}: ${checks}`,
      );
    }
    lines.push(`  next wake: ${g.nextWakeAt?.toISOString() ?? "none"}`);
  } else {
    lines.push("goal: not started (did the App receive the labeled webhook?)");
  }
  const runs = [...sandbox.store.workflowRuns.values()].sort((a, b) => a.id - b.id).slice(-2);
  for (const run of runs) {
    lines.push(`workflow run #${run.runNumber}: ${run.status} ${run.conclusion ?? ""}`);
    for (const job of sandbox.store.workflowJobs.values()) {
      if (job.runId !== run.id) continue;
      lines.push(`  job ${job.key}: ${job.status} ${job.conclusion ?? ""}`);
      if (job.conclusion === "failure") {
        lines.push(
          ...job.log
            .split("\n")
            .slice(-25)
            .map((l) => `    | ${l}`),
        );
      }
    }
  }
  lines.push(
    "The App's own log is in the demo's log file (see the first lines); `--harness shell` takes claude out of the picture.",
  );
  return lines.join("\n");
}
