/** Stop and pause while a tick runs: the lease ends, the run is cancelled, the report settles. */
import { describe, expect, it } from "vitest";
import {
  applyTickResult,
  claimNext,
  claimTodo,
  decide,
  expireLeases,
  pauseGoal,
  renewLease,
  resumeGoal,
  stopGoal,
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
  state,
  todo,
  uuid,
  WRITER,
} from "./fixtures.ts";

const RUN = { id: 9001, attempt: 1 };

function running(run: { id: number; attempt: number } | null = RUN) {
  const s = state({ todos: [todo("T1"), todo("T2")] });
  return expectOk(claimTodo(s, claimInput(1, { run }), ctx())).state;
}

const wip = {
  outcome: "failed",
  failure: "timeout",
  validation: null,
  commits: [{ sha: "a".repeat(40), message: "wip: half the list" }],
  handoff: { done: "half the list", next: "the other half" },
  cost: { usd: 0.25, tokens: 40, runnerMinutes: 2 },
};

describe("stop and pause while a tick runs", () => {
  it("a stop ends the lease and cancels the tick's run, in the stop's own transition", () => {
    const r = expectOk(stopGoal(running(), { reason: "enough" }, ctx(at(minutes(2)), WRITER)));
    expect(r.state.todos[0]?.claim).toBeNull();
    expect(r.state.ticks[0]?.failure).toBe("stopped");
    expect(r.state.ticks[0]?.finishedAt).toBeNull();
    const cancels = r.effects.filter((e) => e.kind === "cancel_run");
    expect(cancels).toEqual([
      {
        kind: "cancel_run",
        key: `cancel_run:${uuid(501)}`,
        tickId: uuid(501),
        runId: RUN.id,
        at: at(minutes(2)),
      },
    ]);
    expect(r.events.map((e) => e.type)).toContain("tick.interrupted");
    expect(r.state.goal.spent.usd).toBe(0);
  });

  it("a stop with no tick running, or a tick with no known run, cancels nothing", () => {
    const idle = state({ todos: [todo("T1")] });
    const a = expectOk(stopGoal(idle, undefined, ctx(at(minutes(2)), WRITER)));
    expect(a.effects.filter((e) => e.kind === "cancel_run")).toEqual([]);
    expect(a.events.map((e) => e.type)).not.toContain("tick.interrupted");
    const b = expectOk(stopGoal(running(null), undefined, ctx(at(minutes(2)), WRITER)));
    expect(b.effects.filter((e) => e.kind === "cancel_run")).toEqual([]);
    expect(b.state.todos[0]?.claim).toBeNull();
  });

  it("a lease already past its expiry is not interrupted: the sweep charges it as expired", () => {
    const r = expectOk(stopGoal(running(), undefined, ctx(at(minutes(31)), WRITER)));
    expect(r.effects.filter((e) => e.kind === "cancel_run")).toEqual([]);
    expect(r.state.ticks[0]?.failure).toBeNull();
  });

  it("the stopped tick's report charges what was measured and records nothing else", () => {
    const stopped = expectOk(stopGoal(running(), undefined, ctx(at(minutes(2)), WRITER))).state;
    const r = expectOk(
      applyTickResult(stopped, { ...lease1, result: result(wip) }, ctx(at(minutes(3)))),
    );
    const t = r.state.ticks[0];
    expect(t?.finishedAt).toEqual(at(minutes(3)));
    expect(t?.outcome).toBe("failed");
    expect(t?.failure).toBe("stopped");
    // Measured, not the cap: a person cut the slice short, it did not crash.
    expect(t?.cost).toEqual({ usd: 0.25, tokens: 40, runnerMinutes: 2 });
    expect(r.state.goal.spent).toEqual({ usd: 0.25, tokens: 40, runnerMinutes: 2, ticks: 1 });
    expect(r.state.evidence).toEqual([]);
    expect(r.state.handoffs).toEqual([]);
    expect(r.effects.some((e) => e.kind === "tick_comment")).toBe(false);
    expect(r.state.goal.backoff.stalledTicks).toBe(0);
    // Reported once: a second report is a duplicate.
    const again = applyTickResult(r.state, { ...lease1, result: result(wip) }, ctx(at(minutes(4))));
    expect(expectRefused(again).code).toBe("duplicate");
  });

  it("an unmetered stopped slice is still charged the cap for the model use nobody counted", () => {
    const stopped = expectOk(stopGoal(running(), undefined, ctx(at(minutes(2)), WRITER))).state;
    const r = expectOk(
      applyTickResult(
        stopped,
        { ...lease1, result: result({ ...wip, metering: "unmetered" }) },
        ctx(at(minutes(3))),
      ),
    );
    expect(r.state.ticks[0]?.cost).toEqual({ usd: 2, tokens: 1000, runnerMinutes: 2 });
  });

  it("the paused tick's report keeps the work in progress and its handoff, completes nothing", () => {
    const paused = expectOk(pauseGoal(running(), undefined, ctx(at(minutes(2)), WRITER))).state;
    expect(paused.ticks[0]?.failure).toBe("paused");
    const r = expectOk(
      applyTickResult(
        paused,
        {
          ...lease1,
          result: result({
            ...wip,
            outcome: "completed",
            failure: null,
            continuation: { kind: "no_followup", reason: "done" },
          }),
        },
        ctx(at(minutes(3))),
      ),
    );
    expect(r.state.todos[0]?.status).toBe("ready");
    expect(r.state.evidence.map((e) => [e.kind, e.sha])).toEqual([["commit", "a".repeat(40)]]);
    expect(r.state.handoffs.map((h) => h.next)).toEqual(["the other half"]);
    expect(r.state.ticks[0]?.failure).toBe("paused");
    expect(r.state.ticks[0]?.slotSpent).toBe(false);
    expect(r.effects.some((e) => e.kind === "tick_comment")).toBe(true);
  });

  it("a stop after a pause keeps nothing, and cancels the run only once", () => {
    const paused = expectOk(pauseGoal(running(), undefined, ctx(at(minutes(2)), WRITER))).state;
    const s = expectOk(stopGoal(paused, undefined, ctx(at(minutes(2)), WRITER)));
    expect(s.state.ticks[0]?.failure).toBe("stopped");
    expect(s.effects.filter((e) => e.kind === "cancel_run")).toEqual([]);
    const r = expectOk(
      applyTickResult(s.state, { ...lease1, result: result(wip) }, ctx(at(minutes(3)))),
    );
    expect(r.state.handoffs).toEqual([]);
    expect(r.state.evidence).toEqual([]);
  });

  it("the interrupted tick cannot renew its lease", () => {
    const stopped = expectOk(stopGoal(running(), undefined, ctx(at(minutes(2)), WRITER))).state;
    const renewed = renewLease(
      stopped,
      { ...lease1, leaseTtlMs: minutes(30) },
      ctx(at(minutes(3))),
    );
    expect(expectRefused(renewed).code).toBe("goal_inactive");
  });

  it("a report that never comes is charged the cap when the old lease runs out", () => {
    const stopped = expectOk(stopGoal(running(), undefined, ctx(at(minutes(2)), WRITER))).state;
    const r = expectOk(expireLeases(stopped, ctx(at(minutes(31)))));
    expect(r.state.ticks[0]?.failure).toBe("lease_expired");
    expect(r.state.ticks[0]?.cost).toEqual(r.state.goal.tickCap);
  });

  it("after a pause and a resume, the todo can be claimed again at once", () => {
    const paused = expectOk(pauseGoal(running(), undefined, ctx(at(minutes(2)), WRITER))).state;
    const resumed = expectOk(resumeGoal(paused, undefined, ctx(at(minutes(2)), WRITER))).state;
    expect(decide(resumed, at(minutes(2)), "agent-a").route).toBe("run");
    const again = claimNext(resumed, claimInput(2), ctx(at(minutes(2))));
    expect(again.result.ok).toBe(true);
  });
});
