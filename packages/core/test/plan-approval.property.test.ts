import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Actor, GoalState, TransitionResult } from "../src/index.ts";
import {
  acceptTodo,
  applyTickResult,
  approveGate,
  claimNext,
  decide,
  normalizeTitle,
  openPlanGate,
  planGateHolds,
  rejectGate,
  requestReplan,
} from "../src/index.ts";
import { at, claimInput, ctx, minutes, result, STRANGER, state, WRITER } from "./fixtures.ts";

const title = fc.constantFrom("List the gears", "list the gears.", "Describe", "Publish", "Ship!");

type Step =
  | { kind: "plan"; titles: string[] }
  | { kind: "approve" | "reject"; writer: boolean }
  | { kind: "accept"; n: number }
  | { kind: "replan" };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("plan" as const), titles: fc.array(title, { maxLength: 4 }) }),
  fc.record({ kind: fc.constantFrom("approve" as const, "reject" as const), writer: fc.boolean() }),
  fc.record({ kind: fc.constant("accept" as const), n: fc.nat(6) }),
  fc.record({ kind: fc.constant("replan" as const) }),
);

const okOr = (s: GoalState, r: TransitionResult) => (r.ok ? r.state : s);

/** Claims the next todo and, if it is a plan, reports `titles` as its proposals. */
function tick(s: GoalState, n: number, titles: string[]): GoalState {
  const now = at(minutes(n * 10));
  const claim = claimNext(s, claimInput(n), ctx(now));
  if (!claim.result.ok) return s;
  const claimed = claim.result.state;
  const key = claimed.ticks.at(-1)?.todo ?? "";
  const todo = claimed.todos.find((t) => t.key === key);
  // No proposed todo is ever claimed.
  expect(s.todos.find((t) => t.key === key)?.status).not.toBe("proposed");
  const input = {
    tickId: claimInput(n).tickId,
    leaseToken: claimInput(n).leaseToken,
    result: result({
      todo: key,
      outcome: "no_change",
      validation: null,
      proposedTodos: todo?.kind === "plan" ? titles.map((t) => ({ title: t })) : [],
    }),
  };
  return okOr(claimed, applyTickResult(claimed, input, ctx(at(minutes(n * 10 + 5)))));
}

function check(s: GoalState, released: ReadonlySet<string>): void {
  const now = at(minutes(10_000));
  const d = decide(s, now, "agent-a");
  if (d.todo !== null) {
    expect(s.todos.find((t) => t.key === d.todo)?.status).not.toBe("proposed");
  }
  const open = s.gates.filter((g) => g.status === "open" && planGateHolds(g) !== null);
  expect(open.length).toBeLessThanOrEqual(1);
  const proposed = s.todos.filter((t) => t.status === "proposed").map((t) => t.key);
  // Every proposed todo is held by the one open plan gate.
  expect(proposed.every((k) => open[0] && planGateHolds(open[0])?.includes(k))).toBe(true);
  // An agent's task is ready only if a writer released it (the plan gate, or accepting it).
  const escaped = s.todos.filter(
    (t) =>
      t.origin === "agent" && t.kind === "task" && t.status === "ready" && !released.has(t.key),
  );
  expect(escaped.map((t) => t.key)).toEqual([]);
  const live = s.todos
    .filter((t) => t.kind !== "plan" && t.status !== "done" && t.status !== "dropped")
    .map((t) => normalizeTitle(t.title));
  expect(new Set(live).size).toBe(live.length);
}

describe("plan: approve (property)", () => {
  it("no proposed todo runs; a writer's approval readies exactly the held ones; no duplicates", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        let s = state({}, { plan: "approve" });
        const released = new Set<string>();
        for (const [i, st] of steps.entries()) {
          const n = i + 1;
          const now = at(minutes(n * 10 + 7));
          const who: Actor = "writer" in st && !st.writer ? STRANGER : WRITER;
          if (st.kind === "plan") s = tick(s, n, st.titles);
          else if (st.kind === "replan") s = okOr(s, requestReplan(s, {}, ctx(now, WRITER)));
          else if (st.kind === "accept") {
            const r = acceptTodo(s, { todo: `T${st.n + 1}` }, ctx(now, WRITER));
            if (r.ok) released.add(`T${st.n + 1}`);
            s = okOr(s, r);
          } else {
            const gate = openPlanGate(s);
            if (!gate) continue;
            const before = new Map(s.todos.map((t) => [t.key, t.status]));
            const r =
              st.kind === "approve"
                ? approveGate(s, { gate: gate.key }, ctx(now, who))
                : rejectGate(s, { gate: gate.key, reason: "no" }, ctx(now, who));
            if (!st.writer) {
              expect(r.ok).toBe(false);
              continue;
            }
            const after = okOr(s, r);
            const held = new Set(planGateHolds(gate));
            const want = st.kind === "approve" ? "ready" : "dropped";
            for (const t of after.todos) {
              const was = before.get(t.key);
              if (held.has(t.key) && was === "proposed") expect(t.status).toBe(want);
              else if (was !== undefined) expect(t.status).toBe(was);
            }
            if (r.ok && st.kind === "approve") for (const k of held) released.add(k);
            s = after;
          }
          check(s, released);
        }
      }),
      { numRuns: 150 },
    );
  });
});
