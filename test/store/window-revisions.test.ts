/**
 * A planning slice may name a todo the window left out (finished long ago). The kernel
 * refuses that revision as evidence rather than as the whole transition, so the refusal
 * alone would not send the store back to the whole aggregate: the evidence would then say
 * "there is no T1" where the whole goal says "T1 is dropped". The store decides such a
 * transition again on the whole aggregate, and both loads record the same words.
 */
import {
  applyTickResult,
  dropTodo,
  type GoalState,
  type HarnessResult,
  requestReplan,
  type TransitionContext,
  type TransitionResult,
} from "@loopx/core";
import { DEFAULT_WINDOW, FULL_WINDOW, openStore, type Store } from "@loopx/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedPglite } from "../support/databases.ts";
import { kernelClaim, kernelCreate } from "./kernel-fixtures.ts";

const BOB = { kind: "human", login: "bob", trusted: true } as const;
const ctx = (now: Date): TransitionContext => ({
  actor: BOB,
  now,
  newId: () => crypto.randomUUID(),
});
const recent = DEFAULT_WINDOW.recentFinished ?? 0;

function planResult(plan: string, tickId: string, leaseToken: string) {
  const result: HarnessResult = {
    todo: plan,
    outcome: "completed",
    failure: null,
    validation: null,
    commits: [],
    evidence: [],
    handoff: { done: "planned", next: "stage it", questions: [] },
    continuation: { kind: "goal_active" },
    proposedTodos: [{ title: "Stage the rollout", detail: "", requiredScopes: [], paths: [] }],
    revisions: { drop: ["T1"], reword: [], order: [] },
    gateRequests: [],
    cost: { usd: 0.01, tokens: 10, runnerMinutes: 1 },
    metering: "proxy",
    withheld: [],
    sessionId: null,
  };
  return (s: GoalState, now: Date): TransitionResult =>
    applyTickResult(
      s,
      { tickId, leaseToken, result },
      { actor: { kind: "agent", tickId, harness: "shell" }, now, newId: () => crypto.randomUUID() },
    );
}

const refusals = (s: GoalState) =>
  s.evidence.filter((e) => e.summary.startsWith("plan revisions refused")).map((e) => e.summary);

describe("a plan revision naming a todo outside the window (PGlite)", () => {
  let store: Store;
  let goalId: string;
  let apply: (s: GoalState, now: Date) => TransitionResult;
  beforeAll(async () => {
    store = await openStore({ pglite: await sharedPglite() });
    await store.migrate();
    const created = await store.createGoal(kernelCreate({ todos: recent + 6 }));
    if (!created.ok) throw new Error(created.refusal.message);
    goalId = created.state.goal.id;
    // T1 is dropped first, so more than the window's worth of finished todos come after it.
    for (const t of created.state.todos.slice(0, -1)) {
      const r = await store.apply(goalId, (s, now) => dropTodo(s, { todo: t.key }, ctx(now)));
      if (!r.ok) throw new Error(r.refusal.message);
    }
    const replan = await store.apply(goalId, (s, now) => requestReplan(s, {}, ctx(now)));
    if (!replan.ok) throw new Error(replan.refusal.message);
    const { tickId, leaseToken, transition } = kernelClaim({ agent: "agent-1" });
    const claimed = await store.apply(goalId, transition);
    if (!claimed.ok) throw new Error(claimed.refusal.message);
    const plan = claimed.state.todos.find((t) => t.kind === "plan" && t.claim !== null);
    if (!plan) throw new Error("the replan claimed no planning todo");
    apply = planResult(plan.key, tickId, leaseToken);
  });
  afterAll(() => store.close());

  it("the window really leaves T1 out", async () => {
    const windowed = await store.loadGoal(goalId, DEFAULT_WINDOW);
    expect(windowed?.todos.some((t) => t.key === "T1")).toBe(false);
    const whole = await store.loadGoal(goalId, FULL_WINDOW);
    expect(whole?.todos.find((t) => t.key === "T1")?.status).toBe("dropped");
  });

  it("records what the whole goal knows: T1 is dropped, not missing", async () => {
    const whole = await store.loadGoal(goalId, FULL_WINDOW);
    if (!whole) throw new Error("goal vanished");
    const expected = apply(structuredClone(whole), new Date());
    if (!expected.ok) throw new Error(expected.refusal.message);
    expect(refusals(expected.state)).toEqual(["plan revisions refused: T1 is dropped"]);

    const applied = await store.apply(goalId, apply);
    if (!applied.ok) throw new Error(applied.refusal.message);
    expect(refusals(applied.state)).toEqual(refusals(expected.state));
    const reread = await store.loadGoal(goalId, FULL_WINDOW);
    expect(reread && refusals(reread)).toEqual(refusals(expected.state));
  });
});
