/** A replan revises the open todos an agent proposed — drop, reword, reorder, add — never people's. */
import { describe, expect, it } from "vitest";
import type { GoalState } from "../src/index.ts";
import { applyTickResult, claimNext } from "../src/index.ts";
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

/** Agents' T1–T3, a writer's T4, an accepted-by-nobody done T5; a replan claimed as T6. */
function replanning(): GoalState {
  const s = state(
    {
      todos: [
        todo("T1", { title: "Sketch the gears", origin: "agent", position: 1 }),
        todo("T2", { title: "Describe gears", origin: "agent", position: 2 }),
        todo("T3", { title: "Publish", origin: "agent", position: 4 }),
        todo("T4", { title: "Ask legal", origin: "human", position: 3 }),
        { ...doneTodo("T5"), origin: "agent", position: 5 },
      ],
    },
    { replanRequested: true },
  );
  const out = claimNext(s, claimInput(1), ctx());
  expect(out.decision?.route).toBe("replan");
  return expectOk(out.result).state;
}

function apply(s: GoalState, over: Record<string, unknown>) {
  return expectOk(
    applyTickResult(
      s,
      {
        ...lease1,
        result: result({ todo: "T6", outcome: "no_change", validation: null, ...over }),
      },
      ctx(at(minutes(5))),
    ),
  );
}

const byKey = (s: GoalState, key: string) => s.todos.find((t) => t.key === key);

describe("revising a plan", () => {
  it("drops, rewords and reorders agents' open todos, and completes the plan", () => {
    const r = apply(replanning(), {
      revisions: {
        drop: ["T1"],
        reword: [{ todo: "T2", title: "Describe each gear", detail: "one paragraph" }],
        order: ["T3", "T2"],
      },
      proposedTodos: [{ title: "Check the prices" }],
    });
    const s = r.state;
    expect(byKey(s, "T1")?.status).toBe("dropped");
    expect([byKey(s, "T2")?.title, byKey(s, "T2")?.detail]).toEqual([
      "Describe each gear",
      "one paragraph",
    ]);
    // T3 and T2 swap the places they held (2 and 4); the writer's T4 keeps its place.
    expect([byKey(s, "T3")?.position, byKey(s, "T2")?.position, byKey(s, "T4")?.position]).toEqual([
      2, 4, 3,
    ]);
    expect(byKey(s, "T7")?.title).toBe("Check the prices");
    expect(byKey(s, "T6")?.status).toBe("done");
  });

  it("refuses to touch people's, finished or unknown todos, and says so as evidence", () => {
    const before = replanning();
    const r = apply(before, {
      revisions: {
        drop: ["T4", "T5", "T99"],
        reword: [{ todo: "T4", title: "Skip legal" }],
        order: ["T4", "T1"],
      },
    });
    const s = r.state;
    expect(byKey(s, "T4")).toEqual(byKey(before, "T4"));
    expect(byKey(s, "T5")?.status).toBe("done");
    expect(byKey(s, "T1")?.position).toBe(1);
    const note = s.evidence.find((e) => e.summary.startsWith("plan revisions refused"));
    expect(note?.summary).toContain("T4 is not an agent's proposal (human)");
    expect(note?.summary).toContain("T5 is done");
    expect(note?.summary).toContain("there is no T99");
    // Nothing applied and nothing proposed: an empty plan, so a stall.
    expect(byKey(s, "T6")?.status).toBe("ready");
    expect(s.goal.backoff.stalledTicks).toBe(1);
  });

  it("a task's slice cannot revise the plan", () => {
    const s = expectOk(
      claimNext(
        state({ todos: [todo("T1"), todo("T2", { origin: "agent" })] }),
        claimInput(1),
        ctx(),
      ).result,
    ).state;
    const r = expectOk(
      applyTickResult(
        s,
        { ...lease1, result: result({ revisions: { drop: ["T2"], reword: [], order: [] } }) },
        ctx(at(minutes(5))),
      ),
    );
    expect(byKey(r.state, "T2")?.status).toBe("ready");
  });
});
