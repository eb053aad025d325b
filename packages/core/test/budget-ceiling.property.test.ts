/**
 * The cost ledger stays at or under the budget the owners approved, at every write: a slice
 * runs under `sliceCeiling` (the metering proxy refuses past it, so what it reports is at
 * most that), and a slice that cannot account for itself is charged that ceiling, not a
 * whole tick cap the budget no longer holds.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  applyTickResult,
  claimNext,
  expireLeases,
  type GoalState,
  setBudget,
  sliceCeiling,
} from "../src/index.ts";
import {
  at,
  claimInput,
  ctx,
  expectOk,
  minutes,
  OWNER,
  result,
  state,
  todo,
  WRITER,
} from "./fixtures.ts";

type Ending =
  | { kind: "reported"; fraction: number }
  | { kind: "timeout"; fraction: number }
  | { kind: "unmetered"; fraction: number }
  | { kind: "expired" };

const ending: fc.Arbitrary<Ending> = fc.oneof(
  fc.record({
    kind: fc.constant("reported" as const),
    fraction: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({
    kind: fc.constant("timeout" as const),
    fraction: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({
    kind: fc.constant("unmetered" as const),
    fraction: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({ kind: fc.constant("expired" as const) }),
);

const step = fc.oneof(
  { weight: 4, arbitrary: ending.map((e) => ({ op: "tick" as const, ending: e })) },
  {
    weight: 1,
    arbitrary: fc
      .double({ min: 0, max: 3, noNaN: true })
      .map((by) => ({ op: "raise" as const, by })),
  },
);

function endOf(e: Ending, ceilingUsd: number) {
  const usd = "fraction" in e ? e.fraction * ceilingUsd : 0;
  switch (e.kind) {
    case "reported":
      return result({ cost: { usd, tokens: 10, runnerMinutes: 1 } });
    case "timeout":
      return result({
        outcome: "failed",
        failure: "timeout",
        validation: null,
        cost: { usd, tokens: 10, runnerMinutes: 1 },
      });
    case "unmetered":
      return result({ metering: "unmetered", cost: { usd, tokens: 10, runnerMinutes: 1 } });
    case "expired":
      return null;
  }
}

describe("the cost ledger never records spend above the approved budget", () => {
  it("property: claims, results, crashes, expiries and raises keep spent.usd ≤ budget.usd", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.05, max: 5, noNaN: true }),
        fc.array(step, { minLength: 1, maxLength: 12 }),
        (budget, steps) => {
          let s: GoalState = state(
            { todos: [todo("T1"), todo("T2")] },
            { budget: { usd: budget }, owners: [OWNER.kind === "human" ? OWNER.login : ""] },
          );
          let clock = 0;
          let n = 0;
          for (const st of steps) {
            clock += minutes(60);
            if (st.op === "raise") {
              const next = (s.goal.budget.usd ?? 0) + st.by;
              const raised = setBudget(s, { limits: { usd: next } }, ctx(at(clock), OWNER));
              if (raised.ok) s = raised.state;
            } else {
              n += 1;
              const ceiling = sliceCeiling(s.goal).usd;
              const claim = claimNext(s, claimInput(n), ctx(at(clock)));
              if (!claim.result.ok) {
                // Only an exhausted budget may refuse this goal's runnable todos, or the
                // backoff of slices that changed nothing (an empty replan among them).
                const backingOff = (s.goal.backoff.until?.getTime() ?? 0) > at(clock).getTime();
                const route = claim.decision?.route;
                expect(route === "over_budget" || (route === "wait" && backingOff)).toBe(true);
                continue;
              }
              s = claim.result.state;
              const tick = s.ticks.find((t) => t.number === s.goal.counters.tick - 1);
              if (!tick) throw new Error("no tick claimed");
              const ended = endOf(st.ending, ceiling);
              s = ended
                ? expectOk(
                    applyTickResult(
                      s,
                      {
                        tickId: tick.id,
                        leaseToken: tick.leaseToken,
                        result: { ...ended, todo: tick.todo },
                      },
                      ctx(at(clock + minutes(5))),
                    ),
                  ).state
                : expectOk(expireLeases(s, ctx(at(clock + minutes(59))))).state;
              const charged = s.ticks.find((t) => t.id === tick.id)?.cost?.usd ?? 0;
              expect(charged).toBeLessThanOrEqual(ceiling + 1e-9);
            }
            expect(s.goal.spent.usd).toBeLessThanOrEqual((s.goal.budget.usd ?? 0) + 1e-9);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it.each([
    // [budget left, failure, charged]: a slice that cannot account for itself is charged
    // the ceiling it ran under, never a whole cap the budget no longer held.
    [0.3, "timeout", 0.3],
    [0.3, "host_failure", 0.3],
    [5, "timeout", 2],
  ] as const)("left $%s, a %s is charged $%s", (left, failure, want) => {
    const s = state({ todos: [todo("T1")] }, { budget: { usd: 10 } });
    s.goal.spent = { ...s.goal.spent, usd: 10 - left };
    const claimed = claimNext(s, claimInput(1), ctx());
    if (!claimed.result.ok) throw new Error(claimed.result.refusal.message);
    const running = claimed.result.state;
    const tick = running.ticks[0];
    if (!tick) throw new Error("no tick");
    const failed = result({
      outcome: "failed",
      failure,
      validation: null,
      cost: { usd: 0, tokens: 0, runnerMinutes: 0 },
    });
    const out = expectOk(
      applyTickResult(
        running,
        { tickId: tick.id, leaseToken: tick.leaseToken, result: failed },
        ctx(at(minutes(5))),
      ),
    );
    expect(out.state.ticks[0]?.cost?.usd).toBeCloseTo(want, 10);
    expect(out.state.goal.spent.usd).toBeLessThanOrEqual(10 + 1e-9);
  });

  it("a slice stopped at the last of the budget is charged what was left, and the goal pauses", () => {
    // The proxy stopped it $0.07 short of its $0.30 ceiling: too little for one more call.
    const s = state({ todos: [todo("T1")] }, { budget: { usd: 10 } });
    s.goal.spent = { ...s.goal.spent, usd: 9.7 };
    const claimed = claimNext(s, claimInput(1), ctx());
    if (!claimed.result.ok) throw new Error(claimed.result.refusal.message);
    const tick = claimed.result.state.ticks[0];
    if (!tick) throw new Error("no tick");
    const stopped = result({
      outcome: "failed",
      failure: "budget_exceeded",
      validation: null,
      cost: { usd: 0.23, tokens: 50_000, runnerMinutes: 3 },
    });
    const out = expectOk(
      applyTickResult(
        claimed.result.state,
        { tickId: tick.id, leaseToken: tick.leaseToken, result: stopped },
        ctx(at(minutes(5))),
      ),
    );
    expect(out.state.ticks[0]?.cost?.usd).toBeCloseTo(0.3, 10);
    expect(out.state.ticks[0]?.cost?.tokens).toBe(50_000);
    expect(out.state.goal.spent.usd).toBeCloseTo(10, 10);
    const next = claimNext(out.state, claimInput(2), ctx(at(minutes(60))));
    expect(next.result.ok).toBe(false);
    expect(next.decision?.route).toBe("over_budget");
    // Under a tick cap, a slice its cap stopped is charged what it spent, reply in flight too.
    const roomy = state({ todos: [todo("T1")] }, { budget: { usd: 10 } });
    const capClaim = claimNext(roomy, claimInput(1), ctx());
    if (!capClaim.result.ok) throw new Error(capClaim.result.refusal.message);
    const capTick = capClaim.result.state.ticks[0];
    if (!capTick) throw new Error("no tick");
    const over = expectOk(
      applyTickResult(
        capClaim.result.state,
        {
          tickId: capTick.id,
          leaseToken: capTick.leaseToken,
          result: { ...stopped, cost: { usd: 2.04, tokens: 400_000, runnerMinutes: 9 } },
        },
        ctx(at(minutes(5))),
      ),
    );
    expect(over.state.ticks[0]?.cost?.usd).toBe(2.04);
  });

  it("without a USD budget the ceiling is the tick cap, as before", () => {
    const s = state({ todos: [todo("T1")] });
    expect(sliceCeiling(s.goal)).toEqual(s.goal.tickCap);
  });
});

describe("raising the budget", () => {
  it("is an owner's act, with a receipt naming who raised it from what to what", () => {
    const s = state({ todos: [todo("T1")] }, { budget: { usd: 1 } });
    const raised = expectOk(setBudget(s, { limits: { usd: 3 } }, ctx(at(0), OWNER)));
    expect(raised.state.goal.budget.usd).toBe(3);
    const receipts = raised.effects.filter((e) => e.kind === "receipt");
    expect(receipts).toEqual([
      {
        kind: "receipt",
        key: `receipt:budget:v${s.goal.version}`,
        text: "@octo-owner raised the budget: usd 1 → 3",
      },
    ]);
  });
  it("is refused to a writer who is not an owner, and leaves no receipt", () => {
    const s = state({ todos: [todo("T1")] }, { budget: { usd: 1 } });
    const out = setBudget(s, { limits: { usd: 3 } }, ctx(at(0), WRITER));
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.refusal.code).toBe("not_authorized");
  });
  it("a lowering is said as a change", () => {
    const s = state({ todos: [todo("T1")] }, { budget: { usd: 5 } });
    const lowered = expectOk(setBudget(s, { limits: { usd: 2 } }, ctx(at(0), WRITER)));
    const receipt = lowered.effects.find((e) => e.kind === "receipt");
    expect(receipt && "text" in receipt ? receipt.text : "").toBe(
      "@writer changed the budget: usd 5 → 2",
    );
  });
});
