import { describe, expect, it } from "vitest";
import {
  approveGate,
  completeTodoByHuman,
  durationWords,
  openGate,
  outcomeAccounting,
  outcomeWords,
  rejectGate,
  reopenTodo,
  tallyOutcomes,
} from "../src/index.ts";
import {
  APP,
  at,
  ctx,
  expectOk,
  expectRefused,
  gate,
  minutes,
  OWNER,
  STRANGER,
  state,
  T0,
  todo,
  WRITER,
} from "./fixtures.ts";

const ZERO = { todosDone: 0, prsMerged: 0, personActs: 0, decisions: 0, waitedMs: 0 };

describe("outcome totals kept by every transition", () => {
  it("a writer's decision is one act and one decision that waited since the gate asked", () => {
    const opened = expectOk(
      openGate(state(), { question: "Deploy?", scopes: ["deploy"] }, ctx(T0, APP)),
    );
    // LoopX's own transitions are nobody's act.
    expect(opened.state.goal.outcomes).toEqual(ZERO);
    const approved = expectOk(
      approveGate(opened.state, { gate: "G1" }, ctx(at(minutes(150)), OWNER)),
    );
    expect(approved.state.goal.outcomes).toEqual({
      ...ZERO,
      personActs: 1,
      decisions: 1,
      waitedMs: minutes(150),
    });
    const second = expectOk(
      openGate(
        approved.state,
        { question: "Publish?", scopes: ["publish"] },
        ctx(at(minutes(200)), APP),
      ),
    );
    const rejected = expectOk(
      rejectGate(second.state, { gate: "G2", reason: "not yet" }, ctx(at(minutes(230)), WRITER)),
    );
    expect(rejected.state.goal.outcomes).toEqual({
      ...ZERO,
      personActs: 2,
      decisions: 2,
      waitedMs: minutes(150 + 30),
    });
  });

  it("an outsider's refused act counts for nothing", () => {
    const opened = expectOk(
      openGate(state(), { question: "Deploy?", scopes: ["deploy"] }, ctx(T0, APP)),
    );
    expectRefused(approveGate(opened.state, { gate: "G1" }, ctx(at(minutes(5)), STRANGER)));
    expect(opened.state.goal.outcomes).toEqual(ZERO);
  });

  it("a todo a writer marks done counts once; reopening it takes it back", () => {
    const s = state({ todos: [todo("T1"), todo("T2")] });
    const done = expectOk(completeTodoByHuman(s, { todo: "T1" }, ctx(T0, OWNER)));
    expect(done.state.goal.outcomes).toMatchObject({ todosDone: 1, personActs: 1 });
    const reopened = expectOk(reopenTodo(done.state, { todo: "T1" }, ctx(at(minutes(1)), OWNER)));
    expect(reopened.state.goal.outcomes).toMatchObject({ todosDone: 0, personActs: 2 });
  });

  it("a merged PR counts once per merge event", () => {
    const merged = tallyOutcomes(ZERO, {
      doneBefore: 3,
      doneAfter: 4,
      events: [
        { type: "pull_request.merged", goalId: "g", actor: APP, at: T0, data: { pr: 7 } },
        { type: "todo.completed", goalId: "g", actor: APP, at: T0, data: { todo: "T4" } },
      ],
      gates: [],
      ctx: { actor: APP, now: T0 },
    });
    expect(merged).toEqual({ ...ZERO, todosDone: 1, prsMerged: 1 });
  });
});

describe("outcome accounting on every surface", () => {
  const goal = {
    spent: { usd: 12, tokens: 0, runnerMinutes: 90, ticks: 6 },
    outcomes: { todosDone: 4, prsMerged: 3, personActs: 5, decisions: 2, waitedMs: minutes(45) },
  };

  it("divides what was spent by what was delivered, and adds the time gates wait now", () => {
    const open = gate("G3", ["deploy"], { openedAt: at(-minutes(20)) });
    const a = outcomeAccounting(goal, [open, gate("G1", ["x"], { status: "approved" })], T0);
    expect(a.usdPerMergedPr).toBeCloseTo(12 / 3);
    expect(a.usdPerTodo).toBeCloseTo(12 / 4);
    expect(a.minutesPerTodo).toBeCloseTo(90 / 4);
    expect(a.waitedMs).toBe(minutes(45 + 20));
    expect(a.waiting).toBe(1);
    expect(outcomeWords(a)).toEqual({
      delivered:
        "4 todos done, 3 PRs merged for $12.00 ($4.00 per merged PR, $3.00 per done todo).",
      people:
        "5 acts by people, 2 decisions on gates; work waited on people 1 h 5 min, 1 waiting now.",
    });
  });

  it("says nothing per unit before anything is delivered, and when nobody was waited on", () => {
    const a = outcomeAccounting({ spent: goal.spent, outcomes: ZERO }, [], T0);
    expect([a.usdPerMergedPr, a.usdPerTodo, a.minutesPerTodo]).toEqual([null, null, null]);
    expect(outcomeWords(a)).toEqual({
      delivered: "0 todos done, 0 PRs merged for $12.00.",
      people: "0 acts by people, 0 decisions on gates; no work waited on people.",
    });
  });

  it("durations read in at most two units", () => {
    expect(durationWords(30_000)).toBe("under a minute");
    expect(durationWords(minutes(12))).toBe("12 min");
    expect(durationWords(minutes(60 * 50 + 41))).toBe("2 d 2 h");
  });
});
