import type {
  Actor,
  Gate,
  Goal,
  GoalState,
  HarnessResult,
  Tick,
  Todo,
  TransitionContext,
  TransitionResult,
} from "../src/index.ts";
import { applyTickResult, claimTodo, HarnessResult as HarnessResultSchema } from "../src/index.ts";

export const T0 = new Date("2026-01-05T12:00:00.000Z");
export const minutes = (n: number) => n * 60_000;
export const at = (offsetMs: number) => new Date(T0.getTime() + offsetMs);

/** Deterministic uuid-shaped ids: the kernel mints through ctx.newId, so tests control them. */
export function idFactory(prefix = 0): () => string {
  let n = 0;
  return () => {
    n += 1;
    const hex = (prefix * 1_000_000 + n).toString(16).padStart(12, "0");
    return `00000000-0000-4000-8000-${hex}`;
  };
}
export const uuid = (n: number) => `00000000-0000-4000-9000-${n.toString(16).padStart(12, "0")}`;

export const OWNER: Actor = { kind: "human", login: "octo-owner", trusted: true };
export const WRITER: Actor = { kind: "human", login: "writer", trusted: true };
export const STRANGER: Actor = { kind: "human", login: "stranger", trusted: false };
export const APP: Actor = { kind: "app" };

export function ctx(
  now: Date = T0,
  actor: Actor = APP,
  extra: Partial<TransitionContext> = {},
): TransitionContext {
  return { actor, now, newId: idFactory(7), ...extra };
}

export function goal(over: Partial<Goal> = {}): Goal {
  return {
    id: uuid(1),
    installationId: 1,
    repo: { id: 10, ownerId: 20, owner: "acme", name: "widgets" },
    issue: { id: 100, number: 42 },
    objective: {
      title: "Ship it",
      body: "Make widgets faster.",
      author: "octo-owner",
      authorTrusted: true,
      snapshotAt: T0,
    },
    status: "active",
    statusReason: "",
    owners: ["octo-owner"],
    harness: "shell",
    validationCommand: "npm test",
    budget: {},
    tickCap: { usd: 2, tokens: 1000, runnerMinutes: 30 },
    quota: { windowHours: 24, slotMinutes: 30, compute: 1 },
    plan: "auto",
    parallel: 1,
    grantedScopes: [],
    version: 1,
    nextWakeAt: null,
    backoff: { level: 0, stalledTicks: 0, until: null },
    replanRequested: false,
    counters: { todo: 1, gate: 1, tick: 1 },
    spent: { usd: 0, tokens: 0, runnerMinutes: 0, ticks: 0 },
    outcomes: { todosDone: 0, prsMerged: 0, personActs: 0, decisions: 0, waitedMs: 0 },
    focus: null,
    digest: { count: 0, sentAt: null, fingerprint: null, dueAt: null },
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

export function todo(key: string, over: Partial<Todo> = {}): Todo {
  return {
    key,
    title: `Do ${key}`,
    detail: "",
    status: "ready",
    kind: "task",
    position: Number.parseInt(key.slice(1), 10),
    origin: "human",
    requiredScopes: [],
    paths: [],
    pushedPaths: [],
    subIssue: null,
    claim: null,
    heldBy: null,
    attempts: 0,
    resumeWhen: null,
    blockedReason: null,
    completion: null,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

export function doneTodo(
  key: string,
  continuation: NonNullable<Todo["completion"]>["continuation"] = {
    kind: "no_followup",
    reason: "finished",
  },
  over: Partial<Todo> = {},
): Todo {
  return todo(key, {
    status: "done",
    completion: { continuation, evidenceIds: [uuid(900)], tickId: null, at: T0 },
    ...over,
  });
}

export function gate(key: string, scopes: string[], over: Partial<Gate> = {}): Gate {
  return {
    key,
    question: `May I ${scopes.join(", ")}?`,
    scopes,
    status: "open",
    requestedFrom: [],
    todo: null,
    pr: null,
    openedAt: T0,
    resolvedBy: null,
    resolvedAt: null,
    note: null,
    ...over,
  };
}

export function tick(n: number, over: Partial<Tick> = {}): Tick {
  return {
    id: uuid(500 + n),
    number: n,
    todo: "T1",
    agent: "agent-a",
    harness: "shell",
    run: null,
    slot: "",
    leaseToken: `lease-token-${n}-xxxxxxxx`,
    leaseExpiresAt: at(minutes(30)),
    startedAt: T0,
    finishedAt: null,
    outcome: null,
    failure: null,
    cost: null,
    slotSpent: false,
    sessionId: null,
    ...over,
  };
}

export function state(over: Partial<GoalState> = {}, goalOver: Partial<Goal> = {}): GoalState {
  const todos = over.todos ?? [];
  const gates = over.gates ?? [];
  const ticks = over.ticks ?? [];
  return {
    goal: goal({
      counters: { todo: todos.length + 1, gate: gates.length + 1, tick: ticks.length + 1 },
      ...goalOver,
    }),
    todos,
    gates,
    evidence: [],
    ticks,
    handoffs: [],
    notes: [],
    pullRequests: [],
    ...over,
  };
}

export function result(over: Record<string, unknown> = {}): HarnessResult {
  return HarnessResultSchema.parse({
    todo: "T1",
    outcome: "progress",
    validation: { command: "npm test", exitCode: 0, passed: true },
    handoff: { done: "did a thing", next: "do the next thing" },
    cost: { usd: 0.5, tokens: 100, runnerMinutes: 3 },
    metering: "proxy",
    ...over,
  });
}

export function expectOk(r: TransitionResult): Extract<TransitionResult, { ok: true }> {
  if (!r.ok) throw new Error(`expected ok, got ${r.refusal.code}: ${r.refusal.message}`);
  return r;
}

export function expectRefused(
  r: TransitionResult,
): Extract<TransitionResult, { ok: false }>["refusal"] {
  if (r.ok) throw new Error("expected a refusal, got ok");
  return r.refusal;
}

/** A claim input for tick n, with its lease token. */
export function claimInput(n: number, over: Record<string, unknown> = {}) {
  return {
    tickId: uuid(500 + n),
    leaseToken: `lease-token-${n}-xxxxxxxx`,
    agent: "agent-a",
    harness: "shell",
    run: null,
    leaseTtlMs: minutes(30),
    ...over,
  };
}

/** A goal with T1 and T2 whose T1 is claimed by tick 501 (lease `lease1`). */
export function claimed(): GoalState {
  const s = state({ todos: [todo("T1"), todo("T2")] });
  return expectOk(claimTodo(s, claimInput(1), ctx())).state;
}
export const lease1 = { tickId: uuid(501), leaseToken: "lease-token-1-xxxxxxxx" };

/** What the slice `lease1` holds reports five minutes in (`over` on the default result); accepted. */
export function reported(over: Record<string, unknown> = {}, s: GoalState = claimed()) {
  return expectOk(applyTickResult(s, { ...lease1, result: result(over) }, ctx(at(minutes(5)))));
}
