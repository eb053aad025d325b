import { type Decision, Gate, type GoalState, GoalState as GoalStateSchema } from "@loopx/core";

export const NOW = new Date("2026-11-29T12:00:00Z");
export const TICK_ID = "11111111-1111-4111-8111-111111111111";
const EVIDENCE_ID = "22222222-2222-4222-8222-222222222222";

/** A realistic goal: three todos (one done by tick #1, one a sub-issue, one dropped), an open gate. */
export function goalState(overrides: Partial<Record<keyof GoalState, unknown>> = {}): GoalState {
  return GoalStateSchema.parse({
    goal: {
      id: "00000000-0000-4000-8000-000000000001",
      installationId: 7,
      repo: { id: 10, ownerId: 20, owner: "acme", name: "widgets" },
      issue: { id: 900, number: 42 },
      objective: {
        title: "Make the widget fast",
        body: "Please make it fast.",
        author: "alice",
        authorTrusted: true,
        snapshotAt: NOW,
      },
      status: "active",
      owners: ["alice"],
      harness: "claude-code",
      budget: { usd: 25, tokens: 1_000_000, runnerMinutes: 600, ticks: 50 },
      tickCap: { usd: 2, tokens: 200_000, runnerMinutes: 30 },
      quota: { windowHours: 24, slotMinutes: 30, compute: 1 },
      version: 3,
      nextWakeAt: new Date("2026-11-29T12:25:00Z"),
      backoff: { level: 0, stalledTicks: 0, until: null },
      counters: { todo: 4, gate: 2, tick: 2 },
      spent: { usd: 1.5, tokens: 123_456, runnerMinutes: 12.5, ticks: 1 },
      createdAt: NOW,
      updatedAt: NOW,
    },
    todos: [
      todo("T1", "Profile the hot path", "done", 1, {
        completion: {
          continuation: { kind: "successor", todo: "T2" },
          evidenceIds: [EVIDENCE_ID],
          tickId: TICK_ID,
          at: NOW,
        },
      }),
      todo("T2", "Cache the parser", "ready", 2, { subIssue: { id: 5001, number: 77 } }),
      todo("T3", "Rewrite in Rust", "dropped", 3),
    ],
    gates: [gate()],
    evidence: [
      {
        id: EVIDENCE_ID,
        todo: "T1",
        tickId: TICK_ID,
        kind: "test",
        summary: "bench: p99 down from 80 ms to 20 ms",
        url: "https://github.com/acme/widgets/actions/runs/555",
        observedAt: NOW,
      },
    ],
    ticks: [
      {
        id: TICK_ID,
        number: 1,
        todo: "T1",
        agent: "runner",
        harness: "claude-code",
        run: { id: 555, attempt: 1 },
        leaseToken: "lease-token-0123456789",
        leaseExpiresAt: NOW,
        startedAt: new Date("2026-11-29T11:00:00Z"),
        finishedAt: new Date("2026-11-29T11:20:00Z"),
        outcome: "completed",
        cost: { usd: 1.5, tokens: 123_456, runnerMinutes: 12.5 },
        slotSpent: true,
      },
    ],
    handoffs: [
      {
        tickId: TICK_ID,
        createdAt: new Date("2026-11-29T11:20:00Z"),
        done: "Profiled; the parser dominates.",
        next: "Cache parsed ASTs.",
        questions: ["Is a 50 MB cache acceptable?"],
      },
    ],
    notes: [],
    pullRequests: [],
    ...overrides,
  });
}

export function todo(
  key: string,
  title: string,
  status: string,
  position: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    key,
    title,
    status,
    kind: "task",
    position,
    origin: "human",
    createdAt: NOW,
    updatedAt: NOW,
    ...extra,
  };
}

export function gate(extra: Record<string, unknown> = {}): Gate {
  return Gate.parse({
    key: "G1",
    question: "Merge PR #12 into main?",
    scopes: ["merge"],
    status: "open",
    requestedFrom: [],
    todo: "T2",
    pr: null,
    openedAt: NOW,
    resolvedBy: null,
    resolvedAt: null,
    note: null,
    ...extra,
  });
}

export function decision(extra: Partial<Decision> = {}): Decision {
  return {
    route: "ask_human",
    todo: null,
    gates: ["G1"],
    reason: "Gate G1 blocks the only runnable todo.",
    userInstruction: "Approve or reject G1.",
    agentInstruction: "",
    nextWakeAt: null,
    ...extra,
  };
}

/** When the fixture's running ticks' leases end: half an hour after NOW. */
export const LEASE_END = new Date(NOW.getTime() + 30 * 60_000);

/** The fixture goal at `parallel` with T2 and T3 claimed by ticks #2 and #3 in slots 1 and 2. */
export function runningGoal(parallel: number): GoalState {
  const s = goalState();
  s.goal.parallel = parallel;
  const base = s.ticks[0];
  if (!base) throw new Error("fixture has a tick");
  const ids = ["33333333-3333-4333-8333-333333333332", "33333333-3333-4333-8333-333333333333"];
  ["T2", "T3"].forEach((key, i) => {
    const id = ids[i] ?? "";
    const todo = s.todos.find((t) => t.key === key);
    if (!todo) throw new Error(`fixture has ${key}`);
    todo.status = "ready";
    todo.claim = { tickId: id, agent: "runner", leaseExpiresAt: LEASE_END };
    s.ticks.push({
      ...base,
      id,
      number: i + 2,
      todo: key,
      slot: i === 0 ? "1" : "2",
      run: { id: 600 + i, attempt: 1 },
      leaseExpiresAt: LEASE_END,
      finishedAt: null,
      outcome: null,
      cost: null,
      slotSpent: false,
    });
  });
  return s;
}
