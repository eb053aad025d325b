import { describe, expect, it } from "vitest";
import {
  BACKOFF_LADDER_MINUTES,
  claimNext,
  claimTodo,
  expireLeases,
  releaseLease,
  renewLease,
} from "../src/index.ts";
import {
  at,
  claimed,
  claimInput,
  ctx,
  expectOk,
  expectRefused,
  goal,
  lease1,
  minutes,
  state,
  todo,
  uuid,
} from "./fixtures.ts";

describe("claims and leases", () => {
  it("claimTodo leases the decided todo and records a tick", () => {
    const s = claimed();
    const t = s.todos[0];
    expect(t?.claim).toEqual({
      tickId: uuid(501),
      agent: "agent-a",
      leaseExpiresAt: at(minutes(30)),
    });
    expect(t?.attempts).toBe(1);
    expect(s.ticks[0]?.number).toBe(1);
    expect(s.goal.counters.tick).toBe(2);
  });
  it("refuses a second claim while the lease is live", () => {
    const ref = expectRefused(claimTodo(claimed(), claimInput(2), ctx(at(minutes(1)))));
    expect(ref.code).toBe("lease_held");
  });
  it("expires a dead lease first, charging the cap; the backoff dates from the expiry", () => {
    const atExpiry = claimNext(claimed(), claimInput(2), ctx(at(minutes(30))));
    expect(atExpiry.decision?.route).toBe("wait");
    expect(atExpiry.decision?.nextWakeAt).toEqual(at(minutes(33)));
    const r = expectOk(claimTodo(claimed(), claimInput(2), ctx(at(minutes(33)))));
    const first = r.state.ticks[0];
    expect(first?.failure).toBe("lease_expired");
    expect(first?.cost).toEqual(goal().tickCap);
    expect(r.state.ticks[1]?.todo).toBeDefined();
  });
  it("refuses a claim for a todo other than the decided one", () => {
    const s = state({ todos: [todo("T1"), todo("T2")] });
    expect(expectRefused(claimTodo(s, claimInput(1, { todo: "T2" }), ctx())).code).toBe(
      "invalid_state",
    );
  });
  it("refuses over budget and inactive goals with the decision's reason", () => {
    const over = state({ todos: [todo("T1")] }, { budget: { usd: 0 } });
    const ref = expectRefused(claimTodo(over, claimInput(1), ctx()));
    expect(ref.code).toBe("over_budget");
    const stopped = state({ todos: [todo("T1")] }, { status: "stopped" });
    expect(expectRefused(claimTodo(stopped, claimInput(1), ctx())).code).toBe("goal_inactive");
  });
  it("refuses a second claim from the same run attempt", () => {
    const run = { id: 9, attempt: 1 };
    const s = expectOk(
      claimTodo(state({ todos: [todo("T1"), todo("T2")] }), claimInput(1, { run }), ctx()),
    ).state;
    expect(expectRefused(claimTodo(s, claimInput(2, { run }), ctx(at(minutes(40))))).code).toBe(
      "duplicate",
    );
  });
  it("refuses a short lease token", () => {
    expect(
      expectRefused(
        claimTodo(state({ todos: [todo("T1")] }), claimInput(1, { leaseToken: "short" }), ctx()),
      ).code,
    ).toBe("invalid_input");
  });
  it("claimNext returns the decision, telling a wait from a run", () => {
    const out = claimNext(claimed(), claimInput(2), ctx(at(minutes(1))));
    expect(out.decision?.route).toBe("wait");
    expect(out.result.ok).toBe(false);
  });
  it("renewLease extends; wrong token and expired leases are refused", () => {
    const s = claimed();
    const r = expectOk(renewLease(s, { ...lease1, leaseTtlMs: minutes(60) }, ctx(at(minutes(20)))));
    expect(r.state.todos[0]?.claim?.leaseExpiresAt).toEqual(at(minutes(80)));
    expect(r.state.ticks[0]?.leaseExpiresAt).toEqual(at(minutes(80)));
    expect(
      expectRefused(
        renewLease(
          s,
          { ...lease1, leaseToken: "wrong-token-xxxxxxxx", leaseTtlMs: minutes(60) },
          ctx(),
        ),
      ).code,
    ).toBe("lease_not_held");
    expect(
      expectRefused(renewLease(s, { ...lease1, leaseTtlMs: minutes(60) }, ctx(at(minutes(30)))))
        .code,
    ).toBe("lease_expired");
  });
  it("releaseLease finishes the tick at its cap and grows backoff", () => {
    const r = expectOk(releaseLease(claimed(), lease1, ctx(at(minutes(5)))));
    expect(r.state.ticks[0]?.cost).toEqual(goal().tickCap);
    expect(r.state.goal.spent.usd).toBe(2);
    expect(r.state.todos[0]?.claim).toBeNull();
    expect(r.state.goal.backoff.level).toBe(1);
    expect(r.state.goal.backoff.until).toEqual(at(minutes(5 + (BACKOFF_LADDER_MINUTES[0] ?? 0))));
  });
  it("expireLeases releases, records host_failure, charges the cap, grows backoff", () => {
    const r = expectOk(expireLeases(claimed(), ctx(at(minutes(31)))));
    expect(r.state.todos[0]?.claim).toBeNull();
    expect(r.state.ticks[0]?.outcome).toBe("failed");
    expect(r.state.evidence.some((e) => e.kind === "host_failure")).toBe(true);
    expect(r.state.goal.spent).toEqual({ usd: 2, tokens: 1000, runnerMinutes: 30, ticks: 1 });
    expect(r.state.goal.backoff.stalledTicks).toBe(1);
    expect(expectRefused(expireLeases(claimed(), ctx(at(minutes(29))))).code).toBe("not_found");
  });
});
