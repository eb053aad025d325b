/**
 * The demo, start to finish: bring up the stack, play the scenario (the issue-fix loop, or
 * with `--plan` an objective the agent plans), print the summary.
 * `npm run demo` calls it through runner.ts; the end-to-end test calls it directly, on its
 * own PostgreSQL, and asserts at each step through `onStep`.
 */

import type { Logger } from "@loopx/app";
import type { GoalState } from "@loopx/core";
import type { DemoOptions } from "./demo-options.ts";
import { DEMO_REPO } from "./demo-project.ts";
import { demoPeople } from "./people.ts";
import { PLAN_STEPS, runPlanScenario } from "./plan-scenario.ts";
import { createProgress, type Print } from "./progress.ts";
import { runScenario } from "./scenario.ts";
import type { ScenarioFacts, StepHook } from "./scenario-types.ts";
import { type Stack, startStack } from "./start-stack.ts";
import { summaryLines } from "./summary.ts";
import { createWaiter } from "./wait-until.ts";

export interface DemoIo {
  print: Print;
  /** Where the App's own log lines go (a file for the terminal demo). */
  log: Logger;
  /** A scratch directory the demo may write to (the shell harness's script). */
  workDir: string;
  confirm: ((question: string, signal?: AbortSignal) => Promise<boolean>) | null;
  onStep?: StepHook;
  /** Aborting it stops the demo at its next poll (Ctrl-C); the stack is then shut down. */
  signal?: AbortSignal;
  /** Called once the stack is up (the e2e test reads the store and the sandbox through it). */
  onStart?: (stack: Stack) => void;
  /** Called with the running stack after the summary, before it is stopped (interactive: waits). */
  beforeStop?: (stack: Stack) => Promise<void>;
}

export interface DemoResult {
  facts: ScenarioFacts;
  state: GoalState | null;
  elapsedMs: number;
}

export async function runDemo(opts: DemoOptions, io: DemoIo): Promise<DemoResult> {
  const progress = createProgress(io.print, opts.plan ? PLAN_STEPS : undefined);
  const stack = await startStack(opts, io.log);
  try {
    io.onStart?.(stack);
    const store = opts.databaseUrl ? "PostgreSQL" : `embedded PGlite in ${opts.dataDir}`;
    const earlier = (await stack.store.listGoalSummaries()).length;
    io.print(`LoopX demo — ${DEMO_REPO.fullName} on a local GitHub (the sandbox)`);
    io.print(`  sandbox    ${stack.sandbox.url}`);
    io.print(`  app        ${stack.appUrl} (dashboard: ${stack.appUrl}/loopx)`);
    io.print(
      `  store      ${store}${earlier > 0 ? `; ${earlier} goal(s) from earlier runs kept (--fresh resets)` : ""}`,
    );
    io.print(
      `  agent      ${opts.harness === "shell" ? "the shell harness (a scripted bash command)" : opts.realModel ? "the real claude CLI against the real Anthropic API" : `the real claude CLI against a scripted model at ${stack.model?.url}`}`,
    );
    io.print("");
    let goalId: string | null = null;
    const waiter = createWaiter(stack, progress, () => goalId, opts.stepTimeoutMs, io.signal);
    const play = opts.plan ? runPlanScenario : runScenario;
    const facts = await play(stack, opts, {
      progress,
      waiter,
      people: demoPeople(stack),
      setGoal: (id) => {
        goalId = id;
      },
      confirm: io.confirm,
      onStep: io.onStep,
    });
    const state = await waiter.state();
    const elapsedMs = progress.elapsedMs();
    for (const line of summaryLines(stack, facts, state, elapsedMs)) io.print(line);
    await io.beforeStop?.(stack);
    return { facts, state, elapsedMs };
  } finally {
    await stack.close();
  }
}
