/**
 * Runs that failed before they reached LoopX: they back the goal off and, enough of them in a
 * row, ask a person, but never ask for a replan: no agent ran the plan.
 */
import { describe, expect, it } from "vitest";
import {
  applyTickResult,
  claimTodo,
  decide,
  type Effect,
  type GoalState,
  recordHostFailure,
  STALLED_TICKS_ASK_HUMAN,
  STALLED_TICKS_REPLAN,
} from "../src/index.ts";
import { at, claimInput, ctx, expectOk, minutes, result, state, todo, uuid } from "./fixtures.ts";

const failRun = (s: GoalState, n: number) =>
  expectOk(recordHostFailure(s, { summary: `run ${n} failed` }, ctx(at(minutes(n * 60)))));

const NO_CHANGE = { outcome: "no_change", validation: null };

/** Tick `n` claims and reports `said` (the fixtures' result with these fields), `n` hours in. */
function report(s: GoalState, n: number, said: Record<string, unknown> = NO_CHANGE) {
  const claimed = expectOk(claimTodo(s, claimInput(n), ctx(at(minutes(n * 60))))).state;
  const lease = { tickId: uuid(500 + n), leaseToken: `lease-token-${n}-xxxxxxxx` };
  return expectOk(
    applyTickResult(claimed, { ...lease, result: result(said) }, ctx(at(minutes(n * 60 + 5)))),
  );
}

const stallNotice = (effects: Effect[]) =>
  effects.flatMap((e) => (e.kind === "notify" && !e.reminder ? [e.occasion.text] : []));

describe("host failures", () => {
  it("back off and count as stalls, but ask for no replan", () => {
    let s = state({ todos: [todo("T1")] });
    for (let n = 1; n <= STALLED_TICKS_REPLAN; n++) s = failRun(s, n).state;
    expect(s.goal.backoff).toMatchObject({
      stalledTicks: STALLED_TICKS_REPLAN,
      hostFailures: STALLED_TICKS_REPLAN,
    });
    expect(s.goal.backoff.until?.getTime()).toBeGreaterThan(at(minutes(120)).getTime());
    expect(s.goal.replanRequested).toBe(false);
  });

  it("leave the replan to stalls the agent ran: two of those in the episode ask for it", () => {
    const s = failRun(state({ todos: [todo("T1")] }), 1).state;
    const first = report(s, 2);
    expect(first.state.goal.replanRequested).toBe(false);
    const second = report(first.state, 3);
    expect(second.state.goal.backoff).toMatchObject({ stalledTicks: 3, hostFailures: 1 });
    expect(second.state.goal.replanRequested).toBe(true);
    expect(second.events.map((e) => e.type)).toContain("goal.replan_requested");
  });

  it("ask a person about the workflow, not the plan, once enough of them come in a row", () => {
    let s = state({ todos: [todo("T1")] });
    const told: string[] = [];
    for (let n = 1; n <= STALLED_TICKS_ASK_HUMAN; n++) {
      const r = failRun(s, n);
      told.push(...stallNotice(r.effects));
      s = r.state;
    }
    expect(told).toHaveLength(1);
    expect(told[0]).toContain(`${STALLED_TICKS_ASK_HUMAN} tick runs in a row failed before`);
    expect(told[0]).not.toContain("replanning");
    const d = decide(s, at(minutes(24 * 60)), "agent-a");
    expect(d.route).toBe("ask_human");
    expect(d.reason).toContain("the tick workflow, its secrets or the runners");
  });

  it("are forgotten with the rest of the stall when a tick makes progress", () => {
    const s = failRun(state({ todos: [todo("T1")] }), 1).state;
    const progress = report(s, 2, {});
    expect(progress.state.goal.backoff).toEqual({ level: 0, stalledTicks: 0, until: null });
  });
});
