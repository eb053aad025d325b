import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type {
  Actor,
  DomainEvent,
  GoalState,
  HarnessResult,
  TransitionResult,
} from "../src/index.ts";
import {
  addEvidence,
  addTodo,
  applyTickResult,
  approveGate,
  blockingGatesFor,
  buildScopeIndex,
  Continuation,
  claimTodo,
  completeTodoByHuman,
  decide,
  expireLeases,
  isLeaseLive,
  openGate,
  queueNote,
  rejectGate,
  releaseLease,
  renewLease,
  scopeCovers,
} from "../src/index.ts";
import {
  claimInput,
  ctx,
  gate,
  minutes,
  result,
  STRANGER,
  state,
  T0,
  todo,
  WRITER,
} from "./fixtures.ts";

const SCOPES = ["merge", "deploy", "deploy:production", "write:.github"];

type Cmd =
  | { op: "claim"; ttl: number }
  | {
      op: "result";
      outcome: "progress" | "completed" | "no_change" | "failed";
      passed: boolean;
      commits: number;
      usd: number;
      late: boolean;
    }
  | { op: "renew" }
  | { op: "release" }
  | { op: "expire" }
  | { op: "advance"; ms: number }
  | { op: "openGate"; scope: number }
  | { op: "approve"; gate: number; trusted: boolean }
  | { op: "reject"; gate: number }
  | { op: "addTodo"; scope: number }
  | { op: "note"; trusted: boolean }
  | { op: "evidence" }
  | { op: "human"; todo: number };

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("claim" as const),
      ttl: fc.integer({ min: 1, max: 60 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("result" as const),
      outcome: fc.constantFrom(
        "progress" as const,
        "completed" as const,
        "no_change" as const,
        "failed" as const,
      ),
      passed: fc.boolean(),
      commits: fc.integer({ min: 0, max: 2 }),
      usd: fc.integer({ min: 0, max: 300 }).map((c) => c / 100),
      late: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ op: "renew" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "release" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "expire" as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("advance" as const),
      ms: fc.integer({ min: 0, max: minutes(90) }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("openGate" as const),
      scope: fc.nat(SCOPES.length - 1),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("approve" as const),
      gate: fc.nat(4),
      trusted: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("reject" as const), gate: fc.nat(4) }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("addTodo" as const), scope: fc.nat(SCOPES.length) }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("note" as const), trusted: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ op: "evidence" as const }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("human" as const), todo: fc.nat(5) }) },
);

interface World {
  s: GoalState;
  now: Date;
  ticks: number;
  /** What each tick was told, to judge slot spends from the rules, not from the code. */
  reported: Map<string, HarnessResult>;
  slotEvents: Map<string, number>;
}

/** Coverage judged the slow, obvious way — independent of the kernel's index. */
function blockedByRule(s: GoalState, required: string[]): boolean {
  const granted = [
    ...s.goal.grantedScopes,
    ...s.gates.filter((g) => g.status === "approved").flatMap((g) => g.scopes),
  ];
  return required.some(
    (r) =>
      !granted.some((g) => scopeCovers(g, r)) &&
      s.gates.some(
        (g) =>
          (g.status === "open" || g.status === "rejected") &&
          g.scopes.some((gs) => scopeCovers(gs, r)),
      ),
  );
}

function checkState(w: World, before: GoalState | null, events: DomainEvent[]): void {
  const { s, now } = w;
  // No todo claimed twice: at most one unfinished tick with a live lease per todo.
  const liveByTodo = new Map<string, number>();
  for (const t of s.ticks) {
    if (t.finishedAt === null && t.leaseExpiresAt.getTime() > now.getTime()) {
      liveByTodo.set(t.todo, (liveByTodo.get(t.todo) ?? 0) + 1);
    }
  }
  for (const n of liveByTodo.values()) expect(n).toBeLessThanOrEqual(1);

  // A lease at or past its expiry is never live, and decide never runs a leased todo.
  for (const t of s.todos) {
    if (t.claim && t.claim.leaseExpiresAt.getTime() <= now.getTime())
      expect(isLeaseLive(t.claim, now)).toBe(false);
  }
  const d = decide(s, now, "prop");
  if (d.route === "run") {
    const chosen = s.todos.find((t) => t.key === d.todo);
    expect(chosen).toBeDefined();
    expect(isLeaseLive(chosen?.claim ?? null, now)).toBe(false);
    expect(blockedByRule(s, chosen?.requiredScopes ?? [])).toBe(false);
  }

  // Cost: the ledger equals the sum of finished ticks, each charged once.
  const finished = s.ticks.filter((t) => t.finishedAt !== null);
  expect(finished.every((t) => t.cost !== null)).toBe(true);
  expect(s.ticks.filter((t) => t.finishedAt === null).every((t) => t.cost === null)).toBe(true);
  expect(s.goal.spent.ticks).toBe(finished.length);
  expect(s.goal.spent.usd).toBeCloseTo(
    finished.reduce((n, t) => n + (t.cost?.usd ?? 0), 0),
    9,
  );
  expect(s.goal.spent.tokens).toBe(finished.reduce((n, t) => n + (t.cost?.tokens ?? 0), 0));

  // The slot: at most once per tick, only for validated progress.
  for (const t of s.ticks) {
    expect(w.slotEvents.get(t.id) ?? 0).toBeLessThanOrEqual(1);
    if (t.slotSpent) {
      const r = w.reported.get(t.id);
      expect(r).toBeDefined();
      expect(r?.outcome === "progress" || r?.outcome === "completed").toBe(true);
      expect(r?.validation?.passed).toBe(true);
    }
  }

  // A gate blocks exactly the todos its scope covers.
  const index = buildScopeIndex(s.gates, s.goal.grantedScopes);
  for (const t of s.todos) {
    expect(blockingGatesFor(index, t.requiredScopes).length > 0).toBe(
      blockedByRule(s, t.requiredScopes),
    );
  }

  // A done todo has evidence that exists and exactly one continuation.
  const evidenceIds = new Set(s.evidence.map((e) => e.id));
  for (const t of s.todos) {
    if (t.status !== "done") continue;
    expect(t.completion).not.toBeNull();
    expect(Continuation.safeParse(t.completion?.continuation).success).toBe(true);
    expect(t.completion?.evidenceIds.length).toBeGreaterThan(0);
    for (const id of t.completion?.evidenceIds ?? []) expect(evidenceIds.has(id)).toBe(true);
  }

  // Backoff never moves earlier without a reset in the same transition.
  if (before) {
    const was = before.goal.backoff.until?.getTime() ?? null;
    const is = s.goal.backoff.until?.getTime() ?? null;
    const earlier = was !== null && (is === null || is < was);
    if (earlier) expect(events.some((e) => e.type === "backoff.reset")).toBe(true);
    expect(s.goal.version).toBe(before.goal.version + 1);
  }
}

function step(w: World, c: Cmd): void {
  const open = w.s.ticks.filter((t) => t.finishedAt === null);
  const last = open.at(-1);
  const lease = last ? { tickId: last.id, leaseToken: last.leaseToken } : null;
  const as = (actor: Actor) => ctx(w.now, actor, { newId: () => crypto.randomUUID() });
  let r: TransitionResult | null = null;
  let sent: { tickId: string; result: HarnessResult } | null = null;
  switch (c.op) {
    case "claim":
      w.ticks += 1;
      r = claimTodo(
        w.s,
        { ...claimInput(w.ticks), tickId: crypto.randomUUID(), leaseTtlMs: minutes(c.ttl) },
        as({ kind: "app" }),
      );
      break;
    case "result": {
      if (!last || !lease) return;
      const res = result({
        todo: last.todo,
        outcome: c.outcome,
        failure: c.outcome === "failed" ? "harness_error" : null,
        validation: { command: "npm test", exitCode: c.passed ? 0 : 1, passed: c.passed },
        commits: Array.from({ length: c.commits }, (_, i) => ({
          sha: `abcdef${i}`.padEnd(7, "0"),
          message: "wip",
        })),
        continuation: c.outcome === "completed" ? { kind: "no_followup", reason: "done" } : null,
        cost: { usd: c.usd, tokens: Math.round(c.usd * 100), runnerMinutes: 1 },
      });
      const when = c.late ? last.leaseExpiresAt : w.now;
      r = applyTickResult(
        w.s,
        { ...lease, result: res },
        ctx(when, { kind: "app" }, { newId: () => crypto.randomUUID() }),
      );
      if (c.late) expect(r.ok).toBe(false);
      sent = { tickId: last.id, result: res };
      if (c.late && !r.ok) return;
      if (c.late) w.now = when;
      break;
    }
    case "renew":
      if (!lease) return;
      r = renewLease(w.s, { ...lease, leaseTtlMs: minutes(30) }, as({ kind: "app" }));
      break;
    case "release":
      if (!lease) return;
      r = releaseLease(w.s, lease, as({ kind: "app" }));
      break;
    case "expire":
      r = expireLeases(w.s, as({ kind: "system", reason: "sweeper" }));
      break;
    case "advance":
      w.now = new Date(w.now.getTime() + c.ms);
      return;
    case "openGate":
      r = openGate(
        w.s,
        { question: "may I?", scopes: [SCOPES[c.scope] ?? "merge"] },
        as({ kind: "app" }),
      );
      break;
    case "approve":
      r = approveGate(w.s, { gate: `G${c.gate + 1}` }, as(c.trusted ? WRITER : STRANGER));
      if (!c.trusted) expect(r.ok).toBe(false);
      break;
    case "reject":
      r = rejectGate(w.s, { gate: `G${c.gate + 1}`, reason: "no" }, as(WRITER));
      break;
    case "addTodo":
      r = addTodo(
        w.s,
        { title: "more", requiredScopes: SCOPES[c.scope] ? [SCOPES[c.scope] ?? ""] : [] },
        as(WRITER),
      );
      break;
    case "note":
      r = queueNote(w.s, { text: "hint" }, as(c.trusted ? WRITER : STRANGER));
      break;
    case "evidence":
      r = addEvidence(w.s, { kind: "check", summary: "CI ran" }, as({ kind: "app" }));
      break;
    case "human":
      r = completeTodoByHuman(w.s, { todo: `T${c.todo + 1}` }, as(WRITER));
      break;
  }
  if (!r?.ok) return;
  const before = w.s;
  w.s = r.state;
  if (sent) w.reported.set(sent.tickId, sent.result);
  for (const e of r.events) {
    if (e.type === "quota.slot_spent" && typeof e.data.tickId === "string") {
      w.slotEvents.set(e.data.tickId, (w.slotEvents.get(e.data.tickId) ?? 0) + 1);
    }
  }
  checkState(w, before, r.events);
}

describe("kernel invariants over random transition sequences", () => {
  it("hold after every accepted transition", () => {
    fc.assert(
      fc.property(fc.array(cmd, { minLength: 1, maxLength: 60 }), (cmds) => {
        const w: World = {
          s: state({
            todos: [
              todo("T1"),
              todo("T2", { requiredScopes: ["merge"] }),
              todo("T3", { requiredScopes: ["deploy:production"] }),
              todo("T4", { kind: "repair" }),
            ],
            gates: [gate("G1", ["merge"])],
          }),
          now: T0,
          ticks: 0,
          reported: new Map(),
          slotEvents: new Map(),
        };
        checkState(w, null, []);
        for (const c of cmds) step(w, c);
      }),
      { numRuns: 300 },
    );
  });
});
