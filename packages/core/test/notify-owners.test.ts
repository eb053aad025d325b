/** One notification path: occasions are told once, by key, and only while they wait. */
import { describe, expect, it } from "vitest";
import {
  applyTickResult,
  approveGate,
  claimTodo,
  createGoal,
  type Effect,
  type Goal,
  occasionWaits,
  openGate,
  recordHostFailure,
  requestReplan,
  resumeGoal,
} from "../src/index.ts";
import {
  at,
  claimInput,
  ctx,
  expectOk,
  goal,
  lease1,
  minutes,
  result,
  state,
  todo,
  WRITER,
} from "./fixtures.ts";

type Notify = Extract<Effect, { kind: "notify" }>;
const notices = (effects: Effect[]) =>
  effects.filter((e): e is Notify => e.kind === "notify").map((e) => e.key);

describe("notifyOwners", () => {
  it("a gate opening is one occasion: a notice now and one reminder, keyed by the gate", () => {
    const s = state({ todos: [todo("T1")] });
    const r = expectOk(openGate(s, { question: "Deploy?", scopes: ["deploy"] }, ctx()));
    expect(notices(r.effects)).toEqual(["notify:gate:G1", "notify:gate:G1:remind"]);
    const n = r.effects.find((e): e is Notify => e.kind === "notify");
    expect(n?.occasion).toMatchObject({ kind: "gate_opened", gate: "G1", at: ctx().now });
    expect(n?.occasion.text).toContain("`/loopx approve G1`");
    // The agent's question is data: it is not what the owners are pinged with.
    expect(n?.occasion.text).not.toContain("Deploy?");
    // A second gate is a new occasion.
    const r2 = expectOk(openGate(r.state, { question: "CI?", scopes: ["ci"] }, ctx()));
    expect(notices(r2.effects)).toEqual(["notify:gate:G2", "notify:gate:G2:remind"]);
    // Waiting while open; an approval ends the occasion.
    expect(n && occasionWaits(r2.state, n.occasion)).toBe(true);
    const approved = expectOk(approveGate(r2.state, { gate: "G1" }, ctx(T(1), WRITER)));
    expect(n && occasionWaits(approved.state, n.occasion)).toBe(false);
    expect(notices(approved.effects)).toEqual([]);
  });

  it("a stall asks once, when the ticks without change reach the threshold", () => {
    let s = state({ todos: [todo("T1")] });
    const told: string[] = [];
    for (let n = 1; n <= 8; n++) {
      const r = expectOk(recordHostFailure(s, { summary: `run ${n} failed` }, ctx(T(n * 60))));
      told.push(...notices(r.effects));
      s = r.state;
    }
    expect(told).toEqual([`notify:stall:t1`, `notify:stall:t1:remind`]);
    expect(s.goal.backoff.stalledTicks).toBe(8);
    const n = {
      kind: "stall" as const,
      key: "stall:t1",
      at: T(0),
      gate: null,
      todo: null,
      text: "",
    };
    expect(occasionWaits(s, n)).toBe(true);
    // Fresh input from a person ends the stall, and its reminder.
    const resumed = expectOk(requestReplan(s, undefined, ctx(T(600), WRITER))).state;
    expect(occasionWaits(resumed, n)).toBe(false);
  });

  it("the budget running out is told once, on the tick that used it up", () => {
    const s = state({ todos: [todo("T1"), todo("T2")] }, { budget: { usd: 1 } });
    const one = expectOk(claimTodo(s, claimInput(1), ctx())).state;
    const r = expectOk(
      applyTickResult(
        one,
        { ...lease1, result: result({ cost: { usd: 1.5, tokens: 10, runnerMinutes: 1 } }) },
        ctx(at(minutes(5))),
      ),
    );
    expect(notices(r.effects)).toEqual(["notify:budget:t1", "notify:budget:t1:remind"]);
    const n = r.effects.find((e): e is Notify => e.kind === "notify");
    expect(n?.occasion.text).toContain("/loopx budget usd=");
    expect(n && occasionWaits(r.state, n.occasion)).toBe(true);
    const raised = structuredClone(r.state);
    raised.goal.budget = { usd: 5 };
    expect(n && occasionWaits(raised, n.occasion)).toBe(false);
  });

  it("a completion on the agent's word alone is told once; a person's tick ends it", () => {
    const s = state({ todos: [todo("T1"), todo("T2")] });
    const one = expectOk(claimTodo(s, claimInput(1), ctx())).state;
    const claimed = result({
      outcome: "completed",
      commits: [],
      validation: null,
      evidence: [{ kind: "test", summary: "all green, trust me" }],
      continuation: { kind: "no_followup", reason: "done" },
    });
    const r = expectOk(applyTickResult(one, { ...lease1, result: claimed }, ctx(at(minutes(5)))));
    const tickId = one.ticks[0]?.id;
    expect(notices(r.effects)).toEqual([
      `notify:evidence:T1:${tickId}`,
      `notify:evidence:T1:${tickId}:remind`,
    ]);
    const n = r.effects.find((e): e is Notify => e.kind === "notify");
    expect(n?.occasion).toMatchObject({ kind: "evidence_awaited", todo: "T1" });
    expect(n?.occasion.text).toContain("Tick it in the checklist");
    expect(n && occasionWaits(r.state, n.occasion)).toBe(true);
    const ticked = structuredClone(r.state);
    const t1 = ticked.todos.find((t) => t.key === "T1");
    if (t1) t1.status = "done";
    expect(n && occasionWaits(ticked, n.occasion)).toBe(false);
    // Evidence it could not fake completes the todo with no one told.
    const proven = expectOk(
      applyTickResult(
        one,
        { ...lease1, result: { ...claimed, commits: [{ sha: "a".repeat(40), message: "T1" }] } },
        ctx(at(minutes(5))),
      ),
    );
    expect(notices(proven.effects)).toEqual([]);
  });

  it("an invalid config at the start is told; a resume ends it", () => {
    const r = expectOk(
      createGoal(
        {
          ...pick(goal()),
          pausedBecause: "`.github/loopx.yml` is invalid; fix it, then comment `/loopx resume`",
        },
        ctx(),
      ),
    );
    expect(notices(r.effects)).toEqual(["notify:config:at-start", "notify:config:at-start:remind"]);
    const n = r.effects.find((e): e is Notify => e.kind === "notify");
    expect(n && occasionWaits(r.state, n.occasion)).toBe(true);
    const resumed = expectOk(resumeGoal(r.state, undefined, ctx(at(1), WRITER))).state;
    expect(n && occasionWaits(resumed, n.occasion)).toBe(false);
  });
});

function pick(g: Goal) {
  const { id, installationId, repo, issue, objective, owners, harness } = g;
  return { id, installationId, repo, issue, objective, owners, harness };
}

function T(seconds: number): Date {
  return at(seconds * 1000);
}
