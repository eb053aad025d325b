// decide() on goals of 10, 100 and 1,000 todos (a gate per ten). Figures, not pass criteria.
import { pathToFileURL } from "node:url";
import type { Gate, GoalState, Todo } from "../packages/core/src/index.ts";
import { decide } from "../packages/core/src/index.ts";
import { median, quantile } from "./stats.ts";

const ITERATIONS = 4000;
const WARMUP = 500;
const REPEATS = 5;

const now = new Date("2026-01-05T12:00:00.000Z");
const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

function bigGoal(todoCount: number): GoalState {
  const gateCount = Math.max(1, todoCount / 10);
  const runnable = Math.min(10, Math.max(1, todoCount / 10));
  const todos: Todo[] = [];
  for (let i = 1; i <= todoCount; i++) {
    // Most todos need a scope an open gate covers; the runnable ones sit at the end, so
    // decide() has to look at every todo before it finds one.
    const gated = i <= todoCount - runnable;
    todos.push({
      key: `T${i}`,
      title: `todo ${i}`,
      detail: "",
      status: i % 7 === 0 ? "done" : "ready",
      kind: i % 50 === 0 ? "review" : "task",
      position: i,
      origin: "human",
      requiredScopes: gated ? [`area${i % gateCount}:part${i}`] : [],
      paths: [],
      pushedPaths: [],
      subIssue: null,
      claim: null,
      heldBy: null,
      attempts: 0,
      resumeWhen: i % 13 === 0 ? { kind: "todo_done", todo: `T${i - 1}` } : null,
      blockedReason: null,
      completion:
        i % 7 === 0
          ? { continuation: { kind: "goal_active" }, evidenceIds: [uuid(i)], tickId: null, at: now }
          : null,
      createdAt: now,
      updatedAt: now,
    });
  }
  const gates: Gate[] = [];
  for (let g = 0; g < gateCount; g++) {
    gates.push({
      key: `G${g + 1}`,
      question: `may I touch area${g}?`,
      scopes: [`area${g}`],
      status: g % 10 === 0 ? "approved" : g % 10 === 1 ? "rejected" : "open",
      requestedFrom: [],
      todo: null,
      pr: null,
      openedAt: now,
      resolvedBy: null,
      resolvedAt: null,
      note: null,
    });
  }
  return {
    goal: {
      id: uuid(1),
      installationId: 1,
      repo: { id: 1, ownerId: 1, owner: "acme", name: "widgets" },
      issue: { id: 1, number: 1 },
      objective: { title: "bench", body: "", author: "acme", authorTrusted: true, snapshotAt: now },
      status: "active",
      statusReason: "",
      owners: ["acme"],
      harness: "shell",
      validationCommand: "npm test",
      budget: { usd: 1000 },
      tickCap: { usd: 2, tokens: 1000, runnerMinutes: 30 },
      quota: { windowHours: 24, slotMinutes: 1, compute: 1 },
      parallel: 1,
      plan: "auto",
      grantedScopes: [],
      version: 1,
      nextWakeAt: null,
      backoff: { level: 0, stalledTicks: 0, until: null },
      replanRequested: false,
      counters: { todo: todoCount + 1, gate: gateCount + 1, tick: 1 },
      spent: { usd: 0, tokens: 0, runnerMinutes: 0, ticks: 0 },
      outcomes: { todosDone: 0, prsMerged: 0, personActs: 0, decisions: 0, waitedMs: 0 },
      focus: null,
      digest: { count: 0, sentAt: null, fingerprint: null, dueAt: null },
      createdAt: now,
      updatedAt: now,
    },
    todos,
    gates,
    evidence: [],
    ticks: [],
    handoffs: [],
    notes: [],
    pullRequests: [],
  };
}

export interface DecideBench {
  todos: number;
  gates: number;
  /** Medians over REPEATS runs of ITERATIONS calls each: wall time per call. */
  p50Ms: number;
  p99Ms: number;
  /**
   * The same, in this process's CPU time: on a shared machine a call that is preempted
   * waits milliseconds for a core, which the wall-clock p99 counts and this does not.
   */
  cpuP50Ms: number;
  cpuP99Ms: number;
  repeats: number;
}

export async function benchDecide(todos = 1000): Promise<DecideBench> {
  const state = bigGoal(todos);
  for (let i = 0; i < WARMUP; i++) decide(state, now, "bench");
  const p50s: number[] = [];
  const p99s: number[] = [];
  const cpuP50s: number[] = [];
  const cpuP99s: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      decide(state, now, "bench");
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
    p50s.push(quantile(wall, 0.5));
    p99s.push(quantile(wall, 0.99));
    cpuP50s.push(quantile(cpu, 0.5));
    cpuP99s.push(quantile(cpu, 0.99));
  }
  return {
    todos,
    gates: state.gates.length,
    p50Ms: median(p50s),
    p99Ms: median(p99s),
    cpuP50Ms: median(cpuP50s),
    cpuP99Ms: median(cpuP99s),
    repeats: REPEATS,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const n of [10, 100, 1000]) {
    const r = await benchDecide(n);
    console.log(
      `decide() on ${r.todos} todos / ${r.gates} gates: p50 ${r.p50Ms.toFixed(3)} ms, p99 ${r.p99Ms.toFixed(3)} ms wall, ${r.cpuP99Ms.toFixed(3)} ms CPU (target p99 < 1 ms at 1,000)`,
    );
  }
}
