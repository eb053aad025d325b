/**
 * A replan that only names the open todos again changes nothing: it neither ends the stall
 * that asked for it nor adds to it, so an agent stuck on a todo reaches a person instead of
 * being replanned and retried forever. A replan that adds or revises a todo ends the stall.
 */
import { describe, expect, it } from "vitest";
import {
  applyTickResult,
  claimNext,
  decide,
  type GoalState,
  STALLED_TICKS_ASK_HUMAN,
  STALLED_TICKS_REPLAN,
} from "../src/index.ts";
import { at, claimInput, ctx, expectOk, minutes, result, state, todo } from "./fixtures.ts";

const STUCK = "Allow line breaks in quoted fields";

/** One tick once the backoff allows it: claim what decide offers, and report `over` for it. */
function tick(s: GoalState, n: number, over: Record<string, unknown>): GoalState {
  const until = s.goal.backoff.until?.getTime() ?? 0;
  const when = new Date(Math.max(at(minutes(60 * n)).getTime(), until + minutes(1)));
  const input = claimInput(n);
  const claimed = expectOk(claimNext(s, input, ctx(when)).result).state;
  const held = claimed.todos.find((t) => t.claim?.tickId === input.tickId);
  if (!held) throw new Error(`tick ${n} claimed nothing`);
  const report = {
    tickId: input.tickId,
    leaseToken: input.leaseToken,
    result: result({ todo: held.key, outcome: "no_change", validation: null, ...over }),
  };
  const reported = new Date(when.getTime() + minutes(5));
  return expectOk(applyTickResult(claimed, report, ctx(reported))).state;
}

/** Stalls on the stuck todo until a replan is asked, then replans with `proposals`. */
function stallThenReplan(proposals: { title: string }[]): GoalState {
  let s = state({ todos: [todo("T1", { title: STUCK })] });
  let n = 1;
  while (!s.goal.replanRequested) s = tick(s, n++, {});
  return tick(s, n, { proposedTodos: proposals });
}

describe("a replan that changes nothing", () => {
  it("keeps the stall counting, so a stuck todo reaches a person", () => {
    const s = stallThenReplan([{ title: STUCK }]);
    // The stalls that asked for the replan still count: the same plan neither ends nor adds one.
    expect(s.goal.backoff.stalledTicks).toBe(STALLED_TICKS_REPLAN);
    let next = s;
    for (let n = 20; next.goal.backoff.stalledTicks < STALLED_TICKS_ASK_HUMAN; n++) {
      next = tick(next, n, {});
      expect(n).toBeLessThan(20 + STALLED_TICKS_ASK_HUMAN);
    }
    const later = new Date((next.goal.backoff.until?.getTime() ?? 0) + minutes(60));
    expect(decide(next, later, "agent-1").route).toBe("ask_human");
  });

  it("a replan that adds a todo is a new plan: the stall ends", () => {
    const s = stallThenReplan([{ title: STUCK }, { title: "Reproduce the CRLF bug first" }]);
    expect(s.goal.backoff.stalledTicks).toBe(0);
    expect(s.todos.map((t) => t.title)).toContain("Reproduce the CRLF bug first");
  });
});
