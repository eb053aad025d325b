import { describe, expect, it } from "vitest";
import type { GoalState, Route } from "../src/index.ts";
import { allowedSlots, decide, PullRequest, STALLED_TICKS_ASK_HUMAN } from "../src/index.ts";
import { at, doneTodo, gate, minutes, state, T0, tick, todo } from "./fixtures.ts";

interface Case {
  name: string;
  s: GoalState;
  route: Route;
  todo?: string | null;
  gates?: string[];
  wake?: Date | null;
  opts?: Parameters<typeof decide>[3];
}

const live = {
  tickId: "00000000-0000-4000-9000-000000000001",
  agent: "agent-b",
  leaseExpiresAt: at(minutes(10)),
};
const dead = { ...live, leaseExpiresAt: T0 };
const slotTicks = (n: number, finishedAt: Date) =>
  Array.from({ length: n }, (_, i) =>
    tick(i + 1, { finishedAt, slotSpent: true, outcome: "progress" }),
  );

const cases: Case[] = [
  {
    name: "stopped wins over everything",
    s: state({ todos: [todo("T1")] }, { status: "stopped" }),
    route: "stopped",
    wake: null,
  },
  {
    name: "paused is reported as stopped",
    s: state({ todos: [todo("T1")] }, { status: "paused" }),
    route: "stopped",
  },
  {
    name: "done stays done",
    s: state({ todos: [doneTodo("T1")] }, { status: "done" }),
    route: "done",
  },
  {
    name: "an open gate covering every runnable todo asks a person",
    s: state({
      todos: [todo("T1", { requiredScopes: ["merge"] })],
      gates: [gate("G1", ["merge"])],
    }),
    route: "ask_human",
    gates: ["G1"],
    wake: null,
  },
  {
    name: "a parent scope covers a child scope",
    s: state({
      todos: [todo("T1", { requiredScopes: ["deploy:production"] })],
      gates: [gate("G1", ["deploy"])],
    }),
    route: "ask_human",
    gates: ["G1"],
  },
  {
    name: "a prefix that does not end at ':' does not cover",
    s: state({
      todos: [todo("T1", { requiredScopes: ["deployment"] })],
      gates: [gate("G1", ["deploy"])],
    }),
    route: "run",
    todo: "T1",
  },
  {
    name: "a child scope gate does not cover the parent scope",
    s: state({
      todos: [todo("T1", { requiredScopes: ["deploy"] })],
      gates: [gate("G1", ["deploy:production"])],
    }),
    route: "run",
    todo: "T1",
  },
  {
    name: "a gate blocks only covered todos: others run",
    s: state({
      todos: [todo("T1", { requiredScopes: ["merge"] }), todo("T2")],
      gates: [gate("G1", ["merge"])],
    }),
    route: "run",
    todo: "T2",
    gates: ["G1"],
  },
  {
    name: "an approved gate grants its scope",
    s: state({
      todos: [todo("T1", { requiredScopes: ["merge"] })],
      gates: [gate("G1", ["merge"], { status: "approved" })],
    }),
    route: "run",
    todo: "T1",
  },
  {
    name: "a standing grant beats an open gate on the same scope",
    s: state(
      { todos: [todo("T1", { requiredScopes: ["merge"] })], gates: [gate("G1", ["merge"])] },
      { grantedScopes: ["merge"] },
    ),
    route: "run",
    todo: "T1",
  },
  {
    name: "a rejected gate does not grant: the todo stays blocked",
    s: state({
      todos: [todo("T1", { requiredScopes: ["merge"] })],
      gates: [gate("G1", ["merge"], { status: "rejected" })],
    }),
    route: "ask_human",
    gates: ["G1"],
  },
  {
    name: "an expired gate neither grants nor blocks",
    s: state({
      todos: [todo("T1", { requiredScopes: ["merge"] })],
      gates: [gate("G1", ["merge"], { status: "expired" })],
    }),
    route: "run",
    todo: "T1",
  },
  {
    name: "a blocking gate comes before a live lease",
    s: state({
      todos: [todo("T1", { requiredScopes: ["merge"], claim: live })],
      gates: [gate("G1", ["merge"])],
    }),
    route: "ask_human",
  },
  {
    name: "a live lease elsewhere waits until it expires",
    s: state({ todos: [todo("T1", { claim: live }), todo("T2")] }),
    route: "wait",
    wake: live.leaseExpiresAt,
  },
  {
    name: "a lease at its expiry instant is dead: the todo runs",
    s: state({ todos: [todo("T1", { claim: dead })] }),
    route: "run",
    todo: "T1",
  },
  {
    name: "a live lease comes before the budget",
    s: state(
      { todos: [todo("T1", { claim: live })] },
      { budget: { usd: 1 }, spent: { usd: 1, tokens: 0, runnerMinutes: 0, ticks: 1 } },
    ),
    route: "wait",
  },
  {
    name: "cost budget used up",
    s: state(
      { todos: [todo("T1")] },
      { budget: { usd: 1 }, spent: { usd: 1, tokens: 0, runnerMinutes: 0, ticks: 1 } },
    ),
    route: "over_budget",
    wake: null,
  },
  {
    name: "cost budget with some left runs",
    s: state(
      { todos: [todo("T1")] },
      { budget: { usd: 1 }, spent: { usd: 0.99, tokens: 0, runnerMinutes: 0, ticks: 1 } },
    ),
    route: "run",
  },
  {
    name: "tick limit counts ticks",
    s: state(
      { todos: [todo("T1")] },
      { budget: { ticks: 3 }, spent: { usd: 0, tokens: 0, runnerMinutes: 0, ticks: 3 } },
    ),
    route: "over_budget",
  },
  {
    name: "the repository allowance lowers the limit",
    s: state({ todos: [todo("T1")] }, { budget: { usd: 100 } }),
    opts: { allowance: { repository: { usd: 0 } } },
    route: "over_budget",
  },
  {
    name: "the installation allowance lowers the limit",
    s: state({ todos: [todo("T1")] }),
    opts: { allowance: { installation: { tokens: 0 } } },
    route: "over_budget",
  },
  {
    name: "a caller can lower the limit",
    s: state({ todos: [todo("T1")] }, { budget: { usd: 10 } }),
    opts: { callerLimits: { usd: 0 } },
    route: "over_budget",
  },
  {
    name: "a caller cannot raise the limit",
    s: state(
      { todos: [todo("T1")] },
      { budget: { usd: 1 }, spent: { usd: 1, tokens: 0, runnerMinutes: 0, ticks: 1 } },
    ),
    opts: { callerLimits: { usd: 1000 } },
    route: "over_budget",
  },
  {
    name: "compute 0 is a hard pause",
    s: state({ todos: [todo("T1")] }, { quota: { windowHours: 24, slotMinutes: 30, compute: 0 } }),
    route: "over_budget",
    wake: null,
  },
  {
    name: "all slots spent: wake when the oldest leaves the window",
    // 1h window / 30 min slots = 2 slots; both spent 10 minutes ago.
    s: state(
      { todos: [todo("T3")], ticks: slotTicks(2, at(-minutes(10))) },
      { quota: { windowHours: 1, slotMinutes: 30, compute: 1 } },
    ),
    route: "over_budget",
    wake: at(minutes(50)),
  },
  {
    name: "slots spent outside the window do not count",
    s: state(
      { todos: [todo("T3")], ticks: slotTicks(2, at(-minutes(61))) },
      { quota: { windowHours: 1, slotMinutes: 30, compute: 1 } },
    ),
    route: "run",
  },
  {
    name: "finished ticks without a slot do not count",
    s: state(
      {
        todos: [todo("T3")],
        ticks: slotTicks(2, at(-minutes(10))).map((t) => ({ ...t, slotSpent: false })),
      },
      { quota: { windowHours: 1, slotMinutes: 30, compute: 1 } },
    ),
    route: "run",
  },
  {
    name: "over budget comes before backoff",
    s: state(
      { todos: [todo("T1")] },
      { budget: { usd: 0 }, backoff: { level: 1, stalledTicks: 1, until: at(minutes(3)) } },
    ),
    route: "over_budget",
  },
  {
    name: "a backoff window waits until it ends",
    s: state(
      { todos: [todo("T1")] },
      { backoff: { level: 1, stalledTicks: 1, until: at(minutes(3)) } },
    ),
    route: "wait",
    wake: at(minutes(3)),
  },
  {
    name: "a backoff window that has ended lets it run",
    s: state({ todos: [todo("T1")] }, { backoff: { level: 1, stalledTicks: 1, until: T0 } }),
    route: "run",
    todo: "T1",
    wake: T0,
  },
  {
    name: "repair beats review beats rebase beats task",
    s: state({
      todos: [
        todo("T1"),
        todo("T2", { kind: "rebase" }),
        todo("T3", { kind: "review" }),
        todo("T4", { kind: "repair" }),
      ],
    }),
    route: "run",
    todo: "T4",
  },
  {
    name: "within a kind, position decides",
    s: state({ todos: [todo("T1", { position: 5 }), todo("T2", { position: 2 })] }),
    route: "run",
    todo: "T2",
  },
  {
    name: "equal positions fall back to the key number (T2 before T10)",
    s: state({ todos: [todo("T10", { position: 1 }), todo("T2", { position: 1 })] }),
    route: "run",
    todo: "T2",
  },
  {
    name: "monitors and user actions are never run",
    s: state({ todos: [todo("T1", { kind: "monitor" }), todo("T2", { kind: "user_action" })] }),
    route: "wait",
    wake: null,
  },
  {
    name: "blocked and deferred todos are not run",
    s: state({
      todos: [
        todo("T1", { status: "blocked", blockedReason: "x" }),
        todo("T2", { status: "deferred" }),
      ],
    }),
    route: "wait",
  },
  {
    name: "resumeWhen at a future time waits until then",
    s: state({ todos: [todo("T1", { resumeWhen: { kind: "at", at: at(minutes(90)) } })] }),
    route: "wait",
    wake: at(minutes(90)),
  },
  {
    name: "resumeWhen at a past time runs",
    s: state({ todos: [todo("T1", { resumeWhen: { kind: "at", at: T0 } })] }),
    route: "run",
  },
  {
    name: "resumeWhen todo_done waits for that todo",
    s: state({
      todos: [
        todo("T1", { resumeWhen: { kind: "todo_done", todo: "T2" } }),
        todo("T2", { kind: "user_action" }),
      ],
    }),
    route: "wait",
  },
  {
    name: "resumeWhen todo_done runs once it is done",
    s: state({
      todos: [todo("T1", { resumeWhen: { kind: "todo_done", todo: "T2" } }), doneTodo("T2")],
    }),
    route: "run",
    todo: "T1",
  },
  {
    name: "resumeWhen pr_merged runs once merged",
    s: state({
      todos: [todo("T1", { resumeWhen: { kind: "pr_merged", pr: 7 } })],
      pullRequests: [
        PullRequest.parse({
          number: 7,
          todo: null,
          headRef: "x",
          headSha: "abcdef1",
          state: "merged",
        }),
      ],
    }),
    route: "run",
  },
  {
    name: "a requested replan with nothing runnable",
    s: state({ todos: [todo("T1", { kind: "monitor" })] }, { replanRequested: true }),
    route: "replan",
    wake: T0,
  },
  {
    name: "the second stalled tick's replan request comes before runnable work",
    s: state(
      { todos: [todo("T1")] },
      { replanRequested: true, backoff: { level: 2, stalledTicks: 2, until: null } },
    ),
    route: "replan",
    todo: null,
  },
  {
    name: "stalls after the replan do not replan again: the new plan runs",
    s: state({ todos: [todo("T1")] }, { backoff: { level: 3, stalledTicks: 3, until: null } }),
    route: "run",
    todo: "T1",
  },
  {
    name: "a requested replan comes before runnable work (retrying unchanged is how loops spin)",
    s: state({ todos: [todo("T1")] }, { replanRequested: true }),
    route: "replan",
    todo: null,
  },
  {
    name: "a pending plan todo is the replan slice, ahead of repairs",
    s: state({ todos: [todo("T1", { kind: "repair" }), todo("T2", { kind: "plan" })] }),
    route: "replan",
    todo: "T2",
  },
  {
    name: `after ${STALLED_TICKS_ASK_HUMAN} stalled ticks a person is asked even with runnable work`,
    s: state(
      { todos: [todo("T1")] },
      { backoff: { level: 4, stalledTicks: STALLED_TICKS_ASK_HUMAN, until: null } },
    ),
    route: "ask_human",
  },
  {
    name: `after ${STALLED_TICKS_ASK_HUMAN} stalled ticks, ask a person instead of replanning`,
    s: state(
      { todos: [todo("T1", { kind: "monitor" })] },
      { backoff: { level: 4, stalledTicks: STALLED_TICKS_ASK_HUMAN, until: null } },
    ),
    route: "ask_human",
  },
  {
    name: "replan when every todo is done but the last completion said goal_active",
    s: state({ todos: [doneTodo("T1", { kind: "goal_active" })] }),
    route: "replan",
  },
  {
    name: "a goal with no todos plans its first ones",
    s: state({ todos: [] }),
    route: "replan",
  },
  {
    name: "done when every todo is done or dropped with no follow-up",
    s: state({ todos: [doneTodo("T1"), todo("T2", { status: "dropped" })] }),
    route: "done",
    wake: null,
  },
  {
    name: "not done while a linked pull request is open",
    s: state({
      todos: [doneTodo("T1")],
      pullRequests: [
        PullRequest.parse({
          number: 3,
          todo: "T1",
          headRef: "loopx/42-T1",
          headSha: "abcdef1",
          state: "open",
        }),
      ],
    }),
    route: "wait",
  },
  {
    name: "not done when only dropped todos exist and one is still open",
    s: state({ todos: [todo("T1", { status: "dropped" }), todo("T2", { status: "deferred" })] }),
    route: "wait",
  },
  {
    name: "done is not derived past the budget check: an over-budget finished goal is done",
    s: state({ todos: [doneTodo("T1")] }, { budget: { usd: 0 } }),
    route: "done",
  },
];

describe("decide()", () => {
  it.each(cases)("$name", (c) => {
    const d = decide(c.s, T0, "agent-a", c.opts);
    expect(d.route).toBe(c.route);
    if (c.todo !== undefined) expect(d.todo).toBe(c.todo);
    if (c.gates !== undefined) expect(d.gates).toEqual(c.gates);
    if (c.wake !== undefined) expect(d.nextWakeAt).toEqual(c.wake);
    expect(d.reason.length).toBeGreaterThan(0);
  });

  it("tells a person how to approve the blocking gate", () => {
    const d = decide(
      state({ todos: [todo("T1", { requiredScopes: ["merge"] })], gates: [gate("G2", ["merge"])] }),
      T0,
      "a",
    );
    expect(d.userInstruction).toContain("/loopx approve G2");
    expect(d.userInstruction).toContain("merge");
    expect(d.agentInstruction).toBe("");
  });

  it("gives the agent an instruction only when it should run", () => {
    const d = decide(state({ todos: [todo("T1")] }), T0, "a");
    expect(d.agentInstruction).toContain("T1");
    expect(d.agentInstruction).toContain("npm test");
    expect(d.nextWakeAt).toEqual(T0);
  });

  it("allowedSlots floors the duty cycle", () => {
    expect(allowedSlots({ windowHours: 24, slotMinutes: 30, compute: 1 })).toBe(48);
    expect(allowedSlots({ windowHours: 24, slotMinutes: 30, compute: 0.5 })).toBe(24);
    expect(allowedSlots({ windowHours: 1, slotMinutes: 7, compute: 1 })).toBe(8);
    expect(allowedSlots({ windowHours: 100 / 60, slotMinutes: 1, compute: 0.29 })).toBe(29);
    expect(allowedSlots({ windowHours: 24, slotMinutes: 30, compute: 0 })).toBe(0);
  });
});
