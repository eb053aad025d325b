import type { GoalState } from "@loopx/core";
import { describe, expect, it } from "vitest";
import { renderStatusComment } from "../src/index.ts";
import { decision, goalState, NOW } from "./fixtures.ts";

const LATER = new Date(NOW.getTime() + 30 * 60_000);

/** The fixture goal with T2 and T3 claimed by ticks #2 and #3 in slots 1 and 2. */
function running(parallel: number): GoalState {
  const s = goalState();
  s.goal.parallel = parallel;
  const base = s.ticks[0];
  if (!base) throw new Error("fixture has a tick");
  const ids = ["33333333-3333-4333-8333-333333333332", "33333333-3333-4333-8333-333333333333"];
  ["T2", "T3"].forEach((key, i) => {
    const id = ids[i] ?? "";
    const todo = s.todos.find((t) => t.key === key);
    if (!todo) throw new Error(`fixture has ${key}`);
    todo.status = "ready";
    todo.claim = { tickId: id, agent: "runner", leaseExpiresAt: LATER };
    s.ticks.push({
      ...base,
      id,
      number: i + 2,
      todo: key,
      slot: i === 0 ? "1" : "2",
      run: { id: 600 + i, attempt: 1 },
      leaseExpiresAt: LATER,
      finishedAt: null,
      outcome: null,
      cost: null,
      slotSpent: false,
    });
  });
  return s;
}

describe("status comment: running ticks", () => {
  it("lists every running tick of a parallel goal, with its slot and run", () => {
    const body = renderStatusComment(running(2), decision(), {
      now: NOW,
      serverUrl: "https://github.com",
    });
    expect(body).toContain("#### Running (2 of 2 slots)");
    expect(body).toContain(
      "- T2 · [tick #2](https://github.com/acme/widgets/actions/runs/600/attempts/1) · slot 1",
    );
    expect(body).toContain(
      "- T3 · [tick #3](https://github.com/acme/widgets/actions/runs/601/attempts/1) · slot 2",
    );
  });

  it("adds nothing for a goal that runs one tick at a time, or when nothing runs", () => {
    expect(
      renderStatusComment(running(1), decision(), { now: NOW, serverUrl: "https://github.com" }),
    ).not.toContain("#### Running");
    const idle = goalState();
    idle.goal.parallel = 2;
    expect(
      renderStatusComment(idle, decision(), { now: NOW, serverUrl: "https://github.com" }),
    ).not.toContain("#### Running");
  });
});
