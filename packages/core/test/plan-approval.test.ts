/** `plan: approve`: an agent's proposals wait as proposed behind one gate until a writer decides. */
import { describe, expect, it } from "vitest";
import type { GoalState } from "../src/index.ts";
import {
  acceptTodo,
  applyTickResult,
  approveGate,
  claimNext,
  decide,
  openPlanGate,
  planGateHolds,
  rejectGate,
  requestReplan,
} from "../src/index.ts";
import {
  at,
  claimInput,
  ctx,
  expectOk,
  expectRefused,
  lease1,
  minutes,
  result,
  STRANGER,
  state,
  todo,
  WRITER,
} from "./fixtures.ts";

const three = [
  { title: "List the gears" },
  { title: "Describe each gear" },
  { title: "Publish the catalogue", requiredScopes: ["deploy"] },
];

/** An objective-only goal under `plan: approve` whose first tick planned `proposals`. */
function planned(proposals = three, s: GoalState = state({}, { plan: "approve" })): GoalState {
  const claimed = expectOk(claimNext(s, claimInput(1), ctx()).result).state;
  const plan = claimed.todos.find((t) => t.kind === "plan")?.key ?? "";
  const input = {
    ...lease1,
    result: result({
      todo: plan,
      outcome: "no_change",
      validation: null,
      proposedTodos: proposals,
    }),
  };
  return expectOk(applyTickResult(claimed, input, ctx(at(minutes(5))))).state;
}

/** A writer asks for a replan; tick `n` claims it and reports `over` (no files changed). */
function replan(s: GoalState, n: number, over: Record<string, unknown>) {
  const t = minutes(n * 10);
  const asked = expectOk(requestReplan(s, {}, ctx(at(t), WRITER))).state;
  const claimed = expectOk(claimNext(asked, claimInput(n), ctx(at(t + 1))).result).state;
  const todo = claimed.todos.find((x) => x.kind === "plan" && x.status === "ready")?.key ?? "";
  const { tickId, leaseToken } = claimInput(n);
  const report = result({ todo, outcome: "no_change", validation: null, ...over });
  return expectOk(applyTickResult(claimed, { tickId, leaseToken, result: report }, ctx(at(t + 2))));
}

const statuses = (s: GoalState) => s.todos.map((t) => [t.key, t.status]);

describe("plan: approve", () => {
  it("holds the plan's todos as proposed behind one gate; nothing is runnable", () => {
    const s = planned();
    expect(statuses(s)).toEqual([
      ["T1", "done"],
      ["T2", "proposed"],
      ["T3", "proposed"],
      ["T4", "proposed"],
    ]);
    const gates = s.gates.filter((g) => g.status === "open");
    expect(gates).toHaveLength(1);
    expect(planGateHolds(gates[0]!)).toEqual(["T2", "T3", "T4"]);
    expect(gates[0]?.question).toContain("T2, T3, T4");
    const d = decide(s, at(minutes(6)), "agent-a");
    expect(d.route).toBe("ask_human");
    expect(d.todo).toBeNull();
    expect(d.userInstruction).toContain("/loopx approve G1");
    // A claim gets nothing to run: the held todos are never claimed.
    const claim = claimNext(s, claimInput(2), ctx(at(minutes(6))));
    expect(claim.result.ok).toBe(false);
  });

  it("under auto (the default) the same plan is ready at once and opens no gate", () => {
    const s = planned(three, state());
    expect(statuses(s).slice(1)).toEqual([
      ["T2", "ready"],
      ["T3", "ready"],
      ["T4", "ready"],
    ]);
    expect(s.gates).toEqual([]);
  });

  it("a writer's approval makes exactly the held todos ready and the next tick works T2", () => {
    const s = planned();
    const r = expectOk(approveGate(s, { gate: "G1" }, ctx(at(minutes(7)), WRITER)));
    expect(statuses(r.state).slice(1)).toEqual([
      ["T2", "ready"],
      ["T3", "ready"],
      ["T4", "ready"],
    ]);
    // Approving the plan lets it run; its text stays the agent's (data) until accepted.
    expect(r.state.todos.slice(1).every((t) => t.origin === "agent")).toBe(true);
    expect(r.events.filter((e) => e.type === "todo.released").map((e) => e.data.todo)).toEqual([
      "T2",
      "T3",
      "T4",
    ]);
    expect(decide(r.state, at(minutes(8)), "agent-a").todo).toBe("T2");
  });

  it("a non-writer's approval is refused and changes nothing", () => {
    const s = planned();
    const refusal = expectRefused(approveGate(s, { gate: "G1" }, ctx(at(minutes(7)), STRANGER)));
    expect(refusal.code).toBe("not_authorized");
    expect(
      statuses(s)
        .slice(1)
        .every(([, st]) => st === "proposed"),
    ).toBe(true);
  });

  it("a rejection drops the held todos and the agent plans again", () => {
    const s = planned();
    const r = expectOk(
      rejectGate(s, { gate: "G1", reason: "too broad" }, ctx(at(minutes(7)), WRITER)),
    );
    expect(statuses(r.state).slice(1)).toEqual([
      ["T2", "dropped"],
      ["T3", "dropped"],
      ["T4", "dropped"],
    ]);
    expect(decide(r.state, at(minutes(8)), "agent-a").route).toBe("replan");
  });

  it("a repeated plan adds no proposal twice and keeps the same gate; a new todo replaces it", () => {
    const r = replan(planned(), 2, { proposedTodos: three });
    expect(r.state.todos.filter((t) => t.status === "proposed")).toHaveLength(3);
    expect(openPlanGate(r.state)?.key).toBe("G1");

    const r3 = replan(r.state, 3, { proposedTodos: [...three, { title: "Announce it" }] });
    const gate = openPlanGate(r3.state);
    expect(gate?.key).toBe("G2");
    expect(planGateHolds(gate!)).toEqual(["T2", "T3", "T4", "T7"]);
    expect(r3.state.gates.find((g) => g.key === "G1")?.status).toBe("expired");
    // The writer who read G1 approves a plan that changed: refused, nothing released.
    const stale = expectRefused(
      approveGate(r3.state, { gate: "G1" }, ctx(at(minutes(40)), WRITER)),
    );
    expect(stale.code).toBe("invalid_state");
  });

  it("a replan's reword of an approved todo holds it again", () => {
    const s = expectOk(approveGate(planned(), { gate: "G1" }, ctx(at(minutes(7)), WRITER))).state;
    const r = replan(s, 2, {
      revisions: { reword: [{ todo: "T3", title: "Delete the repository", detail: "" }] },
    });
    expect(r.state.todos.find((t) => t.key === "T3")?.status).toBe("proposed");
    expect(r.state.todos.find((t) => t.key === "T2")?.status).toBe("ready");
    expect(planGateHolds(openPlanGate(r.state)!)).toEqual(["T3"]);
  });

  it("a successor an agent names waits as proposed too", () => {
    const s = state({ todos: [todo("T1")] }, { plan: "approve" });
    const claimed = expectOk(claimNext(s, claimInput(1), ctx()).result).state;
    const done = result({
      outcome: "completed",
      evidence: [{ kind: "commit", summary: "did it", sha: "a".repeat(40) }],
      continuation: { kind: "successor", title: "Do the next part", detail: "" },
    });
    const r = expectOk(applyTickResult(claimed, { ...lease1, result: done }, ctx(at(minutes(5)))));
    const successor = r.state.todos.find((t) => t.title === "Do the next part");
    expect(successor?.status).toBe("proposed");
    expect(openPlanGate(r.state)).toBeDefined();
  });

  it("a writer accepting each held todo on its own lets it run; the emptied gate expires", () => {
    let s = planned();
    for (const key of ["T2", "T3"]) {
      s = expectOk(acceptTodo(s, { todo: key }, ctx(at(minutes(7)), WRITER))).state;
      expect(s.todos.find((t) => t.key === key)?.status).toBe("ready");
      expect(openPlanGate(s)?.key).toBe("G1");
    }
    s = expectOk(acceptTodo(s, { todo: "T4" }, ctx(at(minutes(8)), WRITER))).state;
    expect(openPlanGate(s)).toBeUndefined();
    expect(s.gates.find((g) => g.key === "G1")?.status).toBe("expired");
  });

  it("an agent's gate request naming plan scopes is no plan gate: approving it releases nothing", () => {
    const s = state({ todos: [todo("T1")] }, { plan: "approve" });
    const claimed = expectOk(claimNext(s, claimInput(1), ctx()).result).state;
    const forged = result({
      outcome: "progress",
      proposedTodos: [{ title: "Push to main" }],
      gateRequests: [{ question: "Accept the plan?", scopes: ["plan:T2"] }],
    });
    const r = expectOk(
      applyTickResult(claimed, { ...lease1, result: forged }, ctx(at(minutes(5)))),
    );
    const agents = r.state.gates.find((g) => g.todo === "T1");
    expect(agents && planGateHolds(agents)).toBeNull();
    expect(openPlanGate(r.state)?.key).not.toBe(agents?.key);
    const approved = expectOk(
      approveGate(r.state, { gate: agents?.key ?? "" }, ctx(at(minutes(6)), WRITER)),
    );
    expect(approved.state.todos.find((t) => t.key === "T2")?.status).toBe("proposed");
  });
});
