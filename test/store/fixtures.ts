/**
 * Small stand-in transitions and a valid GoalState builder. The store is generic over the
 * transition, so these exercise it without depending on the kernel's rules.
 */
import { randomUUID } from "node:crypto";
import type { DomainEvent, Effect, GoalState, Tick, TransitionResult } from "@loopx/core";
import { GoalState as GoalStateSchema } from "@loopx/core";

let issueSeq = 1000;

export function goalState(
  now: Date,
  over: { repoId?: number; issue?: number; todos?: number } = {},
): GoalState {
  const id = randomUUID();
  const issue = over.issue ?? issueSeq++;
  const todoCount = over.todos ?? 2;
  return GoalStateSchema.parse({
    goal: {
      id,
      installationId: 7,
      repo: { id: over.repoId ?? 42, ownerId: 9, owner: "octo", name: "widgets" },
      issue: { id: 900_000 + issue, number: issue },
      objective: {
        title: "Ship the widget",
        body: "Make it spin.",
        author: "alice",
        authorTrusted: true,
        snapshotAt: now,
      },
      status: "active",
      owners: ["alice"],
      harness: "shell",
      budget: { usd: 10, ticks: 50 },
      tickCap: { usd: 1, tokens: 100_000, runnerMinutes: 30 },
      quota: { windowHours: 24, slotMinutes: 30, compute: 1 },
      grantedScopes: ["merge"],
      version: 1,
      nextWakeAt: now,
      backoff: { level: 0, stalledTicks: 0, until: null },
      counters: { todo: todoCount + 1, gate: 2, tick: 1 },
      spent: { usd: 0, tokens: 0, runnerMinutes: 0, ticks: 0 },
      createdAt: now,
      updatedAt: now,
    },
    todos: Array.from({ length: todoCount }, (_, i) => ({
      key: `T${i + 1}`,
      title: `Task ${i + 1}`,
      status: "ready",
      kind: "task",
      position: i,
      origin: "human",
      requiredScopes: i === 1 ? ["deploy:production"] : [],
      createdAt: now,
      updatedAt: now,
    })),
    gates: [
      {
        key: "G1",
        question: "May I deploy?",
        scopes: ["deploy"],
        status: "open",
        openedAt: now,
        pr: { number: 5, headSha: "abcdef1" },
      },
    ],
    evidence: [],
    ticks: [],
    handoffs: [],
    notes: [{ id: randomUUID(), from: "alice", trusted: true, text: "try the fast path", at: now }],
    pullRequests: [
      { number: 5, todo: "T1", headRef: "loopx/1-T1", headSha: "abcdef1", state: "open" },
    ],
  });
}

const actor = { kind: "app" } as const;

function ok(state: GoalState, events: DomainEvent[], effects: Effect[]): TransitionResult {
  return { ok: true, state, events, effects };
}

export function createFixture(over: Parameters<typeof goalState>[1] = {}) {
  return (now: Date): TransitionResult => {
    const state = goalState(now, over);
    return ok(
      state,
      [
        {
          type: "goal.created",
          goalId: state.goal.id,
          actor,
          at: now,
          data: { issue: state.goal.issue.number },
        },
      ],
      [
        { kind: "body", key: "body" },
        { kind: "status", key: "status" },
      ],
    );
  };
}

/** Pauses the goal with a note: one event, a status effect. */
export function pauseFixture(reason = "paused by test") {
  return (state: GoalState, now: Date): TransitionResult =>
    ok(
      {
        ...state,
        goal: {
          ...state.goal,
          status: "paused",
          statusReason: reason,
          version: state.goal.version + 1,
          updatedAt: now,
        },
      },
      [{ type: "goal.paused", goalId: state.goal.id, actor, at: now, data: { reason } }],
      [{ kind: "status", key: "status" }],
    );
}

export interface ClaimInput {
  agent: string;
  leaseTtlMs: number;
  todo?: string;
  run?: { id: number; attempt: number } | null;
}

/**
 * Claims the first ready todo without a live lease (judged on `now`, the DB clock), opens a
 * tick, and pushes next_wake_at to the lease's expiry. Refuses `lease_held` otherwise.
 */
export function claimFixture(input: ClaimInput) {
  return (state: GoalState, now: Date): TransitionResult => {
    const live = (t: GoalState["todos"][number]) =>
      t.claim !== null && t.claim.leaseExpiresAt.getTime() > now.getTime();
    const todo = state.todos.find(
      (t) => t.status === "ready" && (input.todo === undefined || t.key === input.todo),
    );
    if (!todo) return { ok: false, refusal: { code: "invalid_state", message: "no ready todo" } };
    if (live(todo))
      return { ok: false, refusal: { code: "lease_held", message: `${todo.key} is leased` } };
    const leaseExpiresAt = new Date(now.getTime() + input.leaseTtlMs);
    const tick: Tick = {
      id: randomUUID(),
      number: state.goal.counters.tick,
      todo: todo.key,
      agent: input.agent,
      harness: state.goal.harness,
      run: input.run ?? null,
      slot: "",
      leaseToken: randomUUID().replaceAll("-", ""),
      leaseExpiresAt,
      startedAt: now,
      finishedAt: null,
      outcome: null,
      failure: null,
      cost: null,
      slotSpent: false,
      sessionId: null,
    };
    return ok(
      {
        ...state,
        goal: {
          ...state.goal,
          version: state.goal.version + 1,
          nextWakeAt: leaseExpiresAt,
          counters: { ...state.goal.counters, tick: tick.number + 1 },
          updatedAt: now,
        },
        todos: state.todos.map((t) =>
          t.key === todo.key
            ? {
                ...t,
                claim: { tickId: tick.id, agent: input.agent, leaseExpiresAt },
                attempts: t.attempts + 1,
                updatedAt: now,
              }
            : t,
        ),
        ticks: [...state.ticks, tick],
      },
      [
        {
          type: "todo.claimed",
          goalId: state.goal.id,
          actor,
          at: now,
          data: { todo: todo.key, tick: tick.id },
        },
      ],
      [{ kind: "status", key: "status" }],
    );
  };
}

/** Finishes a tick with a cost, evidence and a handoff. */
export function finishFixture(
  tickId: string,
  cost: { usd: number; tokens: number; runnerMinutes: number },
) {
  return (state: GoalState, now: Date): TransitionResult => {
    const tick = state.ticks.find((t) => t.id === tickId);
    if (!tick) return { ok: false, refusal: { code: "not_found", message: "no such tick" } };
    const evidenceId = randomUUID();
    return ok(
      {
        ...state,
        goal: {
          ...state.goal,
          version: state.goal.version + 1,
          spent: {
            usd: state.goal.spent.usd + cost.usd,
            tokens: state.goal.spent.tokens + cost.tokens,
            runnerMinutes: state.goal.spent.runnerMinutes + cost.runnerMinutes,
            ticks: state.goal.spent.ticks + 1,
          },
        },
        ticks: state.ticks.map((t) =>
          t.id === tickId
            ? { ...t, finishedAt: now, outcome: "progress", cost, slotSpent: true }
            : t,
        ),
        todos: state.todos.map((t) => (t.claim?.tickId === tickId ? { ...t, claim: null } : t)),
        evidence: [
          ...state.evidence,
          {
            id: evidenceId,
            todo: tick.todo,
            tickId,
            kind: "test",
            summary: "tests pass",
            url: "https://example.com/run/1",
            sha: "abcdef12",
            observedAt: now,
            stale: false,
          },
        ],
        handoffs: [
          ...state.handoffs,
          { tickId, done: "did it", next: "next bit", questions: [], createdAt: now },
        ],
      },
      [{ type: "tick.finished", goalId: state.goal.id, actor, at: now, data: { tickId, cost } }],
      [
        { kind: "tick_comment", key: `tick:${tickId}`, tickId },
        { kind: "status", key: "status" },
      ],
    );
  };
}
