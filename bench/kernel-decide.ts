// decide() on a large goal: 1,000 todos and 100 gates. Figures, not pass criteria.
import type { Gate, GoalState, Todo } from "../packages/core/src/index.ts";
import { decide } from "../packages/core/src/index.ts";

const TODOS = 1000;
const GATES = 100;
const ITERATIONS = 5000;
const WARMUP = 500;

const now = new Date("2026-01-05T12:00:00.000Z");
const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

function bigGoal(): GoalState {
  const todos: Todo[] = [];
  for (let i = 1; i <= TODOS; i++) {
    // Most todos need a scope an open gate covers; the runnable ones sit at the end, so
    // decide() has to look at every todo before it finds one.
    const gated = i <= TODOS - 10;
    todos.push({
      key: `T${i}`,
      title: `todo ${i}`,
      detail: "",
      status: i % 7 === 0 ? "done" : "ready",
      kind: i % 50 === 0 ? "review" : "task",
      position: i,
      origin: "human",
      requiredScopes: gated ? [`area${i % GATES}:part${i}`] : [],
      subIssue: null,
      claim: null,
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
  for (let g = 0; g < GATES; g++) {
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
      grantedScopes: [],
      version: 1,
      nextWakeAt: null,
      backoff: { level: 0, stalledTicks: 0, until: null },
      replanRequested: false,
      counters: { todo: TODOS + 1, gate: GATES + 1, tick: 1 },
      spent: { usd: 0, tokens: 0, runnerMinutes: 0, ticks: 0 },
      focus: null,
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

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function benchDecide(): Promise<{
  p50Ms: number;
  p99Ms: number;
  todos: number;
  gates: number;
}> {
  const state = bigGoal();
  for (let i = 0; i < WARMUP; i++) decide(state, now, "bench");
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const t0 = performance.now();
    decide(state, now, "bench");
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return {
    p50Ms: percentile(samples, 50),
    p99Ms: percentile(samples, 99),
    todos: TODOS,
    gates: GATES,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchDecide();
  console.log(
    `decide() on ${r.todos} todos / ${r.gates} gates: p50 ${r.p50Ms.toFixed(3)} ms, p99 ${r.p99Ms.toFixed(3)} ms (target p99 < 1 ms)`,
  );
}
