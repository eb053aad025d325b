/**
 * The sandbox's workflow runner set up to run this repository's loopx-tick.yml (verbatim) with
 * the real action bundle and the artifact stand-ins, against the tick harness's App. Tests push
 * the repository's `.github/loopx.yml`, dispatch (or let the App dispatch) and read the run.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Octokit } from "@octokit/rest";
import { GITHUB_ACTION_STAND_INS } from "../../packages/demo/src/stand-ins/index.ts";
import type { WorkflowJob, WorkflowRun } from "../../packages/sandbox/src/index.ts";
import type { TickHarness } from "./tick-api-harness.ts";

const ROOT = resolve(import.meta.dirname, "../..");

export function useTickWorkflow(
  h: TickHarness,
  opts: { config: string; vars?: Record<string, string>; secrets?: Record<string, string> },
): void {
  const { sandbox } = h;
  sandbox.push("acme/widgets", "main", {
    ".github/workflows/loopx-tick.yml": readFileSync(
      resolve(ROOT, ".github/workflows/loopx-tick.yml"),
      "utf8",
    ),
    ".github/loopx.yml": opts.config,
  });
  sandbox.runner.actions = {
    "loopx/loopx@v1": resolve(ROOT, "action/dist/index.js"),
    ...GITHUB_ACTION_STAND_INS,
  };
  sandbox.runner.vars = { LOOPX_API_URL: h.apiUrl, ...opts.vars };
  sandbox.runner.secrets = { ...opts.secrets };
}

/** The tick workflow's dispatched runs, oldest first. */
export function dispatchedRuns(h: TickHarness): WorkflowRun[] {
  return [...h.sandbox.store.workflowRuns.values()]
    .filter((r) => r.event === "workflow_dispatch")
    .sort((a, b) => a.id - b.id);
}

/**
 * Runs ONE tick of the goal: alice dispatches loopx-tick.yml (as "Run workflow" would), the
 * runner takes that run only, and is switched off again so that the App's follow-up dispatch
 * is recorded, not run. Start the goal with the runner off (the harness's default).
 */
export async function dispatchOneTick(h: TickHarness, goal: number): Promise<WorkflowRun> {
  const alice = new Octokit({
    baseUrl: h.sandbox.url,
    auth: h.sandbox.createUserToken("alice"),
    request: { retries: 0 },
  });
  const before = new Set(dispatchedRuns(h).map((r) => r.id));
  h.sandbox.runner.enabled = true;
  try {
    await alice.rest.actions.createWorkflowDispatch({
      owner: "acme",
      repo: "widgets",
      workflow_id: "loopx-tick.yml",
      ref: "main",
      inputs: { goal: String(goal) },
    });
  } finally {
    h.sandbox.runner.enabled = false;
  }
  const run = dispatchedRuns(h).find((r) => !before.has(r.id));
  if (!run) throw new Error("the dispatch created no run");
  return run;
}

/** Polls until the App has dispatched a run (the label's first tick). */
export async function firstDispatch(h: TickHarness): Promise<WorkflowRun> {
  for (let i = 0; i < 50; i++) {
    const [run] = dispatchedRuns(h);
    if (run) return run;
    await h.settle();
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the App dispatched no tick workflow run");
}

export interface FinishedRun {
  run: WorkflowRun;
  jobs: Record<string, WorkflowJob>;
  /** Every job's log, for assertion messages. */
  logs: string;
}

/** Waits for the run to complete (failing with the jobs' logs after `timeoutMs`). */
export async function finishRun(
  h: TickHarness,
  runId: number,
  timeoutMs = 60_000,
): Promise<FinishedRun> {
  const { sandbox } = h;
  const jobsOf = () => [...sandbox.store.workflowJobs.values()].filter((j) => j.runId === runId);
  const dump = () =>
    jobsOf()
      .map((j) => `--- ${j.key}: ${j.status} ${j.conclusion}\n${j.log}`)
      .join("\n");
  let timer: NodeJS.Timeout | undefined;
  const run = await Promise.race([
    sandbox.runner.wait(runId),
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`run ${runId} not done after ${timeoutMs} ms:\n${dump()}`)),
        timeoutMs,
      );
    }),
  ]).finally(() => clearTimeout(timer));
  return { run, jobs: Object.fromEntries(jobsOf().map((j) => [j.key, j])), logs: dump() };
}
