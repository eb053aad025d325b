/**
 * What governance saves: one simulated week on the sandbox's clock, three scripted goals,
 * LoopX versus a naive loop that starts the harness on every cron firing (what a scheduled
 * agent action does). Figures, not pass criteria.
 *
 * What is real: the kernel (packages/core) decides every LoopX tick — claims, waits, gates,
 * backoff, replan, ask-a-human, done — on the sandbox clock (packages/sandbox createClock)
 * and the sandbox's cron matcher. What is modeled: the harness (a stand-in with a fixed cost
 * per run, scripted results), the App's dispatch (a goal is dispatched the minute it falls
 * due, as the App's timer does) and prices (below). The naive loop is generous: it stops
 * on a goal once that goal is done, and otherwise runs every firing.
 *
 *   npx tsx bench/governance.ts
 */
import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import {
  type Actor,
  applyTickResult,
  approveGate,
  claimNext,
  createGoal,
  decide,
  type GoalState,
  type HarnessResult,
  type TransitionResult,
} from "@loopx/core";
import { createClock } from "../packages/sandbox/src/clock.ts";
import { cronMatches } from "../packages/sandbox/src/runner/cron.ts";

/** The naive loop's schedule: hourly, as such loops usually run. */
export const CRON = "17 * * * *";
/** LoopX's wake backstop as docs/workflows.md ships it (daily). */
export const WAKE_CRON = "17 4 * * *";
export const MODEL = {
  /** Runner minutes one harness slice occupies (billed; the stand-in's fixed cost). */
  harnessRunnerMinutes: 10,
  /** Model spend per harness slice (the stand-in's fixed cost). */
  harnessModelUsd: 0.5,
  /** A job that only asks or wakes: GitHub bills each job at least one minute. */
  shortJobRunnerMinutes: 1,
  /** GitHub-hosted Linux x64 2-core runner, per minute. */
  runnerUsdPerMinute: 0.008,
} as const;
const WEEK_MS = 7 * 24 * 3_600_000;
const APPROVAL_DELAY_MS = 2 * 24 * 3_600_000;

export type Scenario = "approval" | "stall" | "progress";
export const SCENARIOS: readonly Scenario[] = ["approval", "stall", "progress"];
const TODOS: Record<Scenario, number> = { approval: 1, stall: 3, progress: 5 };

export interface Spend {
  harnessRuns: number;
  shortJobs: number;
  runnerMinutes: number;
  usd: number;
}
export interface GovernanceBench {
  loopx: Record<Scenario, Spend & { status: string }>;
  naive: Record<Scenario, Spend>;
  wakeJobs: number;
  total: { loopx: Spend; naive: Spend };
}

const spend = (harnessRuns: number, shortJobs: number): Spend => {
  const runnerMinutes =
    harnessRuns * MODEL.harnessRunnerMinutes + shortJobs * MODEL.shortJobRunnerMinutes;
  return {
    harnessRuns,
    shortJobs,
    runnerMinutes,
    usd: runnerMinutes * MODEL.runnerUsdPerMinute + harnessRuns * MODEL.harnessModelUsd,
  };
};
const sum = (xs: Spend[]) =>
  spend(
    xs.reduce((n, x) => n + x.harnessRuns, 0),
    xs.reduce((n, x) => n + x.shortJobs, 0),
  );

const cost = { usd: MODEL.harnessModelUsd, tokens: 20_000, runnerMinutes: 10 };
const passed = { command: "npm test", exitCode: 0, passed: true, summary: "ok" };

/** The stand-in harness: what each scenario's slice reports, scripted. */
function script(scenario: Scenario, todo: string, slice: number): HarnessResult {
  const handoff = { done: `slice ${slice}`, next: "more", questions: [] };
  const base = {
    todo,
    failure: null,
    commits: [],
    continuation: null,
    proposedTodos: [],
    gateRequests: [],
    cost,
    metering: "proxy" as const,
    withheld: [],
    sessionId: null,
    handoff,
  };
  if (scenario === "stall") {
    return { ...base, outcome: "no_change", validation: null, evidence: [] };
  }
  if (scenario === "approval" && slice === 1) {
    // The first slice does its part and finds the next step needs a person's yes.
    return {
      ...base,
      outcome: "completed",
      validation: passed,
      evidence: [{ kind: "test", summary: "tests pass", url: null, sha: null }],
      continuation: {
        kind: "successor",
        title: "Change the deploy config",
        detail: "",
        requiredScopes: ["deploy"],
      },
      gateRequests: [{ question: "May I change the deploy config?", scopes: ["deploy"] }],
    };
  }
  return {
    ...base,
    outcome: "completed",
    validation: passed,
    evidence: [{ kind: "test", summary: "tests pass", url: null, sha: null }],
    continuation: { kind: "no_followup", reason: "nothing more for this step" },
  };
}

/** Where a goal ended the week: done, or what it waits for. */
function endState(state: GoalState, now: Date): string {
  if (state.goal.status === "done") return "done";
  const d = decide(state, now, "loopx");
  return `${state.goal.status}, ${d.route}: ${d.reason.slice(0, 80)}`;
}

async function simulateLoopx(scenario: Scenario, start: number) {
  const clock = createClock(start);
  const ctx = (actor: Actor) => ({ actor, now: new Date(clock.now()), newId: randomUUID });
  const step = (r: TransitionResult): GoalState => {
    if (!r.ok) throw new Error(`${scenario}: ${r.refusal.code}: ${r.refusal.message}`);
    return r.state;
  };
  let state = step(
    createGoal(
      {
        id: randomUUID(),
        installationId: 1,
        repo: { id: 1, ownerId: 1, owner: "acme", name: "widgets" },
        issue: { id: 100, number: 1 },
        objective: {
          title: scenario,
          body: "",
          author: "alice",
          authorTrusted: true,
          snapshotAt: new Date(start),
        },
        owners: ["alice"],
        harness: "shell",
        budget: { usd: 1000 },
        todos: Array.from({ length: TODOS[scenario] }, (_, i) => ({ title: `step ${i + 1}` })),
      },
      ctx({ kind: "app" }),
    ),
  );
  let harnessRuns = 0;
  let waitTicks = 0;
  let approvalAsked = false;
  let running = false;
  const due = () =>
    state.goal.status === "active" &&
    !running &&
    state.goal.nextWakeAt !== null &&
    state.goal.nextWakeAt.getTime() <= clock.now();

  /** A dispatched tick: the action asks; the kernel says run (a harness slice) or wait. */
  function tick(): void {
    const tickId = randomUUID();
    const leaseToken = randomUUID();
    const claim = claimNext(
      state,
      { tickId, leaseToken, agent: "loopx", harness: "shell", run: null, leaseTtlMs: 3_600_000 },
      ctx({ kind: "agent", tickId, harness: "shell" }),
    );
    if (!claim.result.ok) {
      waitTicks++;
      return;
    }
    state = claim.result.state;
    harnessRuns++;
    running = true;
    const todo = state.ticks.find((t) => t.id === tickId)?.todo ?? "";
    clock.at(clock.now() + MODEL.harnessRunnerMinutes * 60_000, () => {
      running = false;
      const result = script(scenario, todo, harnessRuns);
      state = step(
        applyTickResult(
          state,
          { tickId, leaseToken, result },
          ctx({ kind: "agent", tickId, harness: "shell" }),
        ),
      );
      const gate = state.gates.find((g) => g.status === "open");
      if (gate && !approvalAsked) {
        approvalAsked = true;
        // The owner answers two days after being asked.
        clock.at(clock.now() + APPROVAL_DELAY_MS, () => {
          state = step(
            approveGate(
              state,
              { gate: gate.key },
              ctx({ kind: "human", login: "alice", trusted: true }),
            ),
          );
        });
      }
    });
  }

  for (let t = 0; t < WEEK_MS; t += 60_000) {
    // The App dispatches a goal the minute it falls due (its timer; the daily wake is a
    // backstop that finds nothing the timer missed here).
    if (due()) tick();
    await clock.advance(60_000);
  }
  return {
    ...spend(harnessRuns, waitTicks),
    status: endState(state, new Date(clock.now())),
  };
}

/**
 * The naive loop on the same script: every cron firing runs one slice on every goal not yet
 * done. `progress` is done after its five slices; `approval` asks in its first slice, gets
 * its answer two days later, and is done one slice after that (the firings in between run
 * the harness for nothing); `stall` never finishes.
 */
function simulateNaive(scenario: Scenario, start: number): Spend {
  const clock = createClock(start);
  let runs = 0;
  let productive = 0;
  let approvedAt: number | null = null;
  let done = false;
  for (let t = 0; t < WEEK_MS && !done; t += 60_000) {
    const now = clock.now();
    if (cronMatches(CRON, new Date(now))) {
      runs++;
      if (scenario === "progress") done = ++productive === TODOS.progress;
      if (scenario === "approval") {
        if (approvedAt === null) approvedAt = now + APPROVAL_DELAY_MS;
        else if (now >= approvedAt) done = true;
      }
    }
    void clock.advance(60_000);
  }
  return spend(runs, 0);
}

export async function benchGovernance(): Promise<GovernanceBench> {
  const start = Date.UTC(2026, 0, 5, 9, 0, 0); // a Monday, 09:00 UTC
  const loopx = {} as GovernanceBench["loopx"];
  const naive = {} as GovernanceBench["naive"];
  for (const s of SCENARIOS) {
    loopx[s] = await simulateLoopx(s, start);
    naive[s] = simulateNaive(s, start);
  }
  // LoopX's daily wake job (one per repository; the three goals share one repository).
  const clock = createClock(start);
  let wakeJobs = 0;
  for (let t = 0; t < WEEK_MS; t += 60_000) {
    if (cronMatches(WAKE_CRON, new Date(clock.now()))) wakeJobs++;
    await clock.advance(60_000);
  }
  const wake = spend(0, wakeJobs);
  return {
    loopx,
    naive,
    wakeJobs,
    total: {
      loopx: sum([...SCENARIOS.map((s) => loopx[s]), wake]),
      naive: sum(SCENARIOS.map((s) => naive[s])),
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const r = await benchGovernance();
  for (const s of SCENARIOS) {
    console.log(s, "loopx", r.loopx[s], "naive", r.naive[s]);
  }
  console.log("wake jobs", r.wakeJobs);
  console.log("total", r.total, "ratio", (r.total.naive.usd / r.total.loopx.usd).toFixed(1));
}
