/** A planning slice: its proposed todos complete it, an empty plan stalls, duplicates add none. */
import { describe, expect, it } from "vitest";
import type { GoalState } from "../src/index.ts";
import { applyTickResult, claimNext, decide, normalizeTitle } from "../src/index.ts";
import {
  at,
  claimInput,
  ctx,
  doneTodo,
  expectOk,
  lease1,
  minutes,
  result,
  state,
  todo,
} from "./fixtures.ts";

/** An objective-only goal whose first tick claimed the planning todo T1. */
function planning(s: GoalState = state()): GoalState {
  const out = claimNext(s, claimInput(1), ctx());
  expect(out.decision?.route).toBe("replan");
  return expectOk(out.result).state;
}

const planKey = (s: GoalState) => s.todos.find((t) => t.kind === "plan")?.key ?? "";

/** What a planning slice reports: no file changed, so the harness says no_change. */
function plan(s: GoalState, over: Record<string, unknown> = {}) {
  return {
    ...lease1,
    result: result({ todo: planKey(s), outcome: "no_change", validation: null, ...over }),
  };
}

const three = [
  { title: "List the gears" },
  { title: "Describe each gear" },
  { title: "Publish the catalogue", requiredScopes: ["deploy"] },
];

describe("planning slices", () => {
  it("a plan with valid proposed todos completes on the kernel's own evidence and resets backoff", () => {
    const s = planning();
    s.goal.backoff = { level: 1, stalledTicks: 1, until: null };
    const r = expectOk(applyTickResult(s, plan(s, { proposedTodos: three }), ctx(at(minutes(5)))));
    const p = r.state.todos.find((t) => t.key === "T1");
    expect(p?.status).toBe("done");
    expect(p?.completion?.continuation).toEqual({ kind: "goal_active" });
    const ev = r.state.evidence.find((e) => e.id === p?.completion?.evidenceIds[0]);
    expect(ev?.summary).toBe("plan: 3 todo(s) proposed, 3 new (T2, T3, T4)");
    expect(r.state.todos.slice(1).map((t) => [t.key, t.origin, t.requiredScopes])).toEqual([
      ["T2", "agent", []],
      ["T3", "agent", []],
      ["T4", "agent", ["deploy"]],
    ]);
    expect(r.state.goal.backoff.stalledTicks).toBe(0);
    expect(r.effects.some((e) => e.kind === "tick_comment")).toBe(true);
    // The plan is done: the next claim runs its first todo, not the plan again.
    expect(decide(r.state, at(minutes(6)), "agent-a").todo).toBe("T2");
  });

  it("an empty plan is a stall, even when the agent says it completed", () => {
    const s = planning();
    const r = expectOk(
      applyTickResult(
        s,
        plan(s, {
          outcome: "completed",
          continuation: { kind: "goal_active" },
          evidence: [{ kind: "note", summary: "I planned everything, trust me" }],
        }),
        ctx(at(minutes(5))),
      ),
    );
    expect(r.state.todos.map((t) => [t.key, t.status])).toEqual([["T1", "ready"]]);
    expect(r.state.goal.backoff.stalledTicks).toBe(1);
    expect(r.events.find((e) => e.type === "backoff.grown")?.data).toMatchObject({
      reason: expect.stringContaining("planned no todo"),
    });
  });

  it("a failed planning slice does not complete the plan, whatever it proposed", () => {
    const s = planning();
    const r = expectOk(
      applyTickResult(
        s,
        plan(s, { outcome: "failed", failure: "timeout", proposedTodos: three }),
        ctx(at(minutes(5))),
      ),
    );
    expect(r.state.todos.find((t) => t.key === "T1")?.status).toBe("ready");
  });

  it("a repeated plan adds none of the todos already open, and still completes", () => {
    const s = state({
      todos: [todo("T1", { title: "List the gears", origin: "agent" }), doneTodo("T2")],
    });
    s.todos[1] = { ...doneTodo("T2"), title: "Describe each gear" };
    s.goal.replanRequested = true;
    const claimed = planning(s);
    const proposals = [
      { title: "  list THE gears. " },
      { title: "Describe each gear" },
      { title: "Describe  each gear!" },
    ];
    const r = expectOk(
      applyTickResult(claimed, plan(claimed, { proposedTodos: proposals }), ctx(at(minutes(5)))),
    );
    // T1 is open under the same normalized title; T2's title is done, so it may come again, once.
    const added = r.state.todos.filter(
      (t) => t.key !== "T1" && t.key !== "T2" && t.kind !== "plan",
    );
    expect(added.map((t) => t.title)).toEqual(["Describe each gear"]);
    expect(r.state.todos.find((t) => t.kind === "plan")?.status).toBe("done");
  });

  it("the same result delivered twice is refused the second time and adds nothing", () => {
    const s = planning();
    const once = expectOk(
      applyTickResult(s, plan(s, { proposedTodos: three }), ctx(at(minutes(5)))),
    );
    const twice = applyTickResult(
      once.state,
      plan(s, { proposedTodos: three }),
      ctx(at(minutes(6))),
    );
    expect(twice.ok).toBe(false);
    expect(once.state.todos).toHaveLength(4);
  });

  it("an agent's completion of a task proposes todos without duplicates too", () => {
    const s = expectOk(
      claimNext(
        state({ todos: [todo("T1"), todo("T2", { title: "Write docs" })] }),
        claimInput(1),
        ctx(),
      ).result,
    ).state;
    const r = expectOk(
      applyTickResult(
        s,
        {
          ...lease1,
          result: result({ proposedTodos: [{ title: "write docs" }, { title: "Ship" }] }),
        },
        ctx(at(minutes(5))),
      ),
    );
    expect(r.state.todos.map((t) => t.title).slice(2)).toEqual(["Ship"]);
  });

  it("a gate the agent asks for scopes its own todo", () => {
    const s = expectOk(
      claimNext(state({ todos: [todo("T1"), todo("T2")] }), claimInput(1), ctx()).result,
    ).state;
    const r = expectOk(
      applyTickResult(
        s,
        {
          ...lease1,
          result: result({ gateRequests: [{ question: "May I deploy?", scopes: ["deploy"] }] }),
        },
        ctx(at(minutes(5))),
      ),
    );
    expect(r.state.todos.find((t) => t.key === "T1")?.requiredScopes).toEqual(["deploy"]);
    expect(r.state.gates.map((g) => [g.key, g.todo, g.status])).toEqual([["G1", "T1", "open"]]);
    // The gated todo waits; the other runs.
    expect(decide(r.state, at(minutes(6)), "agent-a").todo).toBe("T2");
  });
});

describe("normalizeTitle", () => {
  it("ignores case, spacing and trailing punctuation, not words", () => {
    expect(normalizeTitle("  List\tthe  GEARS.\n")).toBe("list the gears");
    expect(normalizeTitle("Ｌｉｓｔ gears")).toBe("list gears");
    expect(normalizeTitle("List gears")).not.toBe(normalizeTitle("List cogs"));
  });
});
