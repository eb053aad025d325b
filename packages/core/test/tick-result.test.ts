/** applyTickResult: both ledgers, completion, failures, the shared wake, refusals. */
import { describe, expect, it } from "vitest";
import {
  AWAITING_EVIDENCE,
  AWAITING_PULL_REQUEST,
  addEvidence,
  applyTickResult,
  claimNext,
  claimTodo,
  completeTodoByHuman,
  decide,
  expireLeases,
  queueNote,
} from "../src/index.ts";
import {
  at,
  claimed,
  claimInput,
  ctx,
  expectOk,
  expectRefused,
  lease1,
  minutes,
  reported,
  result,
  state,
  T0,
  todo,
  uuid,
  WRITER,
} from "./fixtures.ts";

describe("applyTickResult", () => {
  it("validated progress spends the slot, charges the cost, resets backoff, posts a tick comment", () => {
    const s = claimed();
    s.goal.backoff = { level: 1, stalledTicks: 1, until: T0 };
    const r = reported({}, s);
    const t = r.state.ticks[0];
    expect(t?.slotSpent).toBe(true);
    expect(t?.cost).toEqual({ usd: 0.5, tokens: 100, runnerMinutes: 3 });
    expect(r.state.goal.spent).toEqual({ usd: 0.5, tokens: 100, runnerMinutes: 3, ticks: 1 });
    expect(r.state.goal.backoff).toEqual({ level: 0, stalledTicks: 0, until: null });
    expect(r.events.map((e) => e.type)).toContain("quota.slot_spent");
    expect(r.effects.some((e) => e.kind === "tick_comment" && e.key === `tick:${uuid(501)}`)).toBe(
      true,
    );
    expect(r.state.todos[0]?.claim).toBeNull();
    expect(r.state.handoffs).toHaveLength(1);
  });
  it("progress without a passing validation spends no slot", () => {
    const r = reported({ validation: { command: "npm test", exitCode: 1, passed: false } });
    expect(r.state.ticks[0]?.slotSpent).toBe(false);
    expect(r.state.goal.backoff.stalledTicks).toBe(1);
    expect(r.state.goal.backoff.until).toEqual(at(minutes(5 + 3)));
  });
  it("no_change spends no slot and grows backoff up the ladder", () => {
    const s = claimed();
    s.goal.backoff = { level: 3, stalledTicks: 3, until: null };
    const r = reported({ outcome: "no_change", validation: null }, s);
    expect(r.state.ticks[0]?.slotSpent).toBe(false);
    expect(r.state.goal.backoff.level).toBe(4);
    expect(r.state.goal.backoff.until).toEqual(at(minutes(5 + 60)));
    expect(r.effects.some((e) => e.kind === "tick_comment")).toBe(false);
  });
  it("a context's own ladder sets the wait; [0] waits not at all, yet still counts the stall", () => {
    const noChange = { ...lease1, result: result({ outcome: "no_change", validation: null }) };
    const grow = (ladder: readonly number[], from: number) => {
      const s = claimed();
      s.goal.backoff = { level: from, stalledTicks: from, until: null };
      const c = { ...ctx(at(minutes(5))), backoffLadderMinutes: ladder };
      return expectOk(applyTickResult(s, noChange, c)).state.goal.backoff;
    };
    expect(grow([1, 2], 0)).toEqual({ level: 1, stalledTicks: 1, until: at(minutes(5 + 1)) });
    // Past its last rung the ladder repeats it.
    expect(grow([1, 2], 5)).toEqual({ level: 2, stalledTicks: 6, until: at(minutes(5 + 2)) });
    const none = grow([0], 1);
    expect(none).toEqual({ level: 1, stalledTicks: 2, until: at(minutes(5)) });
    // A wait that ends when it starts holds nothing back; one rung of three minutes does.
    const next = (backoff: typeof none) =>
      decide(state({ todos: [todo("T1")] }, { backoff }), at(minutes(5)), "agent-a").route;
    expect(next(none)).toBe("run");
    expect(next({ ...none, until: at(minutes(8)) })).toBe("wait");
  });
  it("the second stalled tick in a row requests a replan, once per stall episode", () => {
    const s = claimed();
    s.goal.backoff = { level: 1, stalledTicks: 1, until: null };
    const noChange = { ...lease1, result: result({ outcome: "no_change", validation: null }) };
    const r = expectOk(applyTickResult(s, noChange, ctx(at(minutes(5)))));
    expect(r.state.goal.backoff.stalledTicks).toBe(2);
    expect(r.state.goal.replanRequested).toBe(true);
    expect(r.events.map((e) => e.type)).toContain("goal.replan_requested");

    const later = claimed();
    later.goal.backoff = { level: 2, stalledTicks: 2, until: null };
    const again = expectOk(applyTickResult(later, noChange, ctx(at(minutes(5)))));
    expect(again.state.goal.replanRequested).toBe(false);
  });
  it("a replan is claimed as a slice on a new plan todo, ahead of the stalled one", () => {
    const s = state({ todos: [todo("T1"), todo("T2")] }, { replanRequested: true });
    const out = claimNext(s, claimInput(1), ctx());
    expect(out.decision?.route).toBe("replan");
    const r = expectOk(out.result);
    const plan = r.state.todos.find((t) => t.kind === "plan");
    expect(plan?.key).toBe("T3");
    expect(plan?.claim?.tickId).toBe(uuid(501));
    expect(Math.min(...r.state.todos.map((t) => t.position))).toBe(plan?.position);
    expect(r.state.goal.replanRequested).toBe(false);
    expect(r.state.ticks[0]?.todo).toBe("T3");
  });
  it.each(["host_failure", "harness_error", "timeout"])(
    "a %s failure is charged at least the tick cap: its reported cost cannot be trusted",
    (failure) => {
      const s = claimed();
      const cap = s.goal.tickCap;
      const r = reported(
        {
          outcome: "failed",
          failure,
          validation: null,
          cost: { usd: 0, tokens: 0, runnerMinutes: cap.runnerMinutes + 5 },
        },
        s,
      );
      expect(r.state.ticks[0]?.cost).toEqual({
        usd: cap.usd,
        tokens: cap.tokens,
        runnerMinutes: cap.runnerMinutes + 5,
      });
      expect(r.state.goal.spent.usd).toBe(cap.usd);
    },
  );
  it("USD and tokens only the agent could have counted (unmetered) are charged at the cap; its runner minutes are not", () => {
    const s = claimed();
    const cap = s.goal.tickCap;
    const r = reported(
      {
        metering: "unmetered",
        cost: { usd: 0.01, tokens: 5, runnerMinutes: 2 },
      },
      s,
    );
    expect(r.state.ticks[0]?.cost).toEqual({ usd: cap.usd, tokens: cap.tokens, runnerMinutes: 2 });
  });
  it("a result with withheld fields records which, never what", () => {
    const r = reported({ withheld: ["claim.handoff.done", "outputTail"] });
    const withheld = r.events.filter((e) => e.type === "credential.withheld");
    expect(withheld).toHaveLength(1);
    expect(withheld[0]?.data).toMatchObject({ fields: ["claim.handoff.done", "outputTail"] });
  });
  it("transitions between two ticks share one automatic wake: one dispatch, not one each", () => {
    const done = reported();
    // The push is recorded by the App, not by a person.
    const later = expectOk(
      addEvidence(
        done.state,
        { kind: "commit", summary: "pushed", sha: "abcdef1234" },
        ctx(at(minutes(6))),
      ),
    );
    const keys = [...done.effects, ...later.effects]
      .filter((e) => e.kind === "dispatch")
      .map((e) => e.key);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
    // The next tick's claim moves the key on: its own result wakes the loop again.
    const next = expectOk(claimTodo(later.state, claimInput(2), ctx(at(minutes(7)))));
    const after = expectOk(
      applyTickResult(
        next.state,
        { tickId: uuid(502), leaseToken: "lease-token-2-xxxxxxxx", result: result() },
        ctx(at(minutes(9))),
      ),
    );
    const nextKey = after.effects.find((e) => e.kind === "dispatch")?.key;
    expect(nextKey).toBeDefined();
    expect(nextKey).not.toBe(keys[0]);
    // A person's act after the machine's wake still wakes the loop on its own.
    const note = expectOk(
      queueNote(done.state, { text: "try the cache" }, ctx(at(minutes(6)), WRITER)),
    );
    const human = note.effects.find((e) => e.kind === "dispatch")?.key;
    expect(human).toBeDefined();
    expect(human).not.toBe(keys[0]);
  });
  it("a failure keeps the todo ready and charges what was reported", () => {
    const r = reported({
      outcome: "failed",
      failure: "validation_failed",
      validation: { command: "npm test", exitCode: 1, passed: false },
    });
    expect(r.state.todos[0]?.status).toBe("ready");
    expect(r.state.goal.spent.usd).toBe(0.5);
  });
  it("completion with no_followup marks done with evidence and derives goal done", () => {
    const s = expectOk(claimTodo(state({ todos: [todo("T1")] }), claimInput(1), ctx())).state;
    const r = reported(
      {
        outcome: "completed",
        continuation: { kind: "no_followup", reason: "all done" },
      },
      s,
    );
    const t = r.state.todos[0];
    expect(t?.status).toBe("done");
    expect(t?.completion?.evidenceIds.length).toBeGreaterThan(0);
    expect(r.state.evidence.find((e) => e.id === t?.completion?.evidenceIds[0])?.kind).toBe("test");
    expect(r.state.goal.status).toBe("done");
    expect(r.effects.some((e) => e.kind === "close_issue")).toBe(true);
  });
  it("completion with a successor creates it and points to it", () => {
    const r = reported({
      outcome: "completed",
      continuation: { kind: "successor", title: "follow up" },
    });
    expect(r.state.todos[0]?.completion?.continuation).toEqual({ kind: "successor", todo: "T3" });
    expect(r.state.todos.find((t) => t.key === "T3")?.origin).toBe("agent");
    expect(r.state.goal.focus).toBe("T3");
    // It follows T1: it starts once T1 is delivered, never beside T1's unmerged work.
    expect(r.state.todos.find((t) => t.key === "T3")?.resumeWhen).toEqual({
      kind: "todo_done",
      todo: "T1",
    });
    const pending = reported({
      outcome: "completed",
      commits: [{ sha: "abcdef1", message: "T1 work" }],
      continuation: { kind: "successor", title: "follow up" },
    });
    const t1 = pending.state.todos.find((t) => t.key === "T1");
    expect(t1?.blockedReason).toBe(AWAITING_PULL_REQUEST);
    expect(decide(pending.state, at(minutes(6)), "agent-a").todo).toBe("T2");
  });
  it("a successor named like an open todo is that todo; one named like itself follows nothing", () => {
    const title = claimed().todos.find((t) => t.key === "T2")?.title ?? "";
    const r = reported({
      outcome: "completed",
      continuation: { kind: "successor", title: ` ${title.toUpperCase()}.` },
    });
    expect(r.state.todos.map((t) => t.key)).toEqual(["T1", "T2"]);
    expect(r.state.todos[0]?.completion?.continuation).toEqual({ kind: "successor", todo: "T2" });
    expect(r.state.goal.focus).toBe("T2");
    const self = claimed().todos.find((t) => t.key === "T1")?.title ?? "";
    const again = reported({
      outcome: "completed",
      continuation: { kind: "successor", title: self },
    });
    expect(again.state.todos.map((t) => t.key)).toEqual(["T1", "T2"]);
    expect(again.state.todos[0]?.completion?.continuation).toEqual({ kind: "goal_active" });
  });
  it("a completion on the agent's word alone leaves the todo claimed, awaiting evidence", () => {
    const r = reported({
      outcome: "completed",
      validation: null,
      evidence: [{ kind: "test", summary: "I ran the tests, all green, trust me" }],
      continuation: { kind: "successor", title: "Celebrate" },
    });
    const t1 = r.state.todos.find((t) => t.key === "T1");
    expect([t1?.status, t1?.blockedReason, t1?.completion]).toEqual([
      "blocked",
      AWAITING_EVIDENCE,
      null,
    ]);
    // Its words are kept for people to read, and nothing follows from them.
    expect(r.state.evidence.map((e) => e.summary)).toContain(
      "I ran the tests, all green, trust me",
    );
    expect(r.state.todos.map((t) => t.key)).toEqual(["T1", "T2"]);
    expect(r.state.goal.backoff.stalledTicks).toBe(1);
    // A writer's tick is evidence: it completes the claimed todo.
    const ticked = expectOk(
      completeTodoByHuman(r.state, { todo: "T1" }, ctx(at(minutes(6)), WRITER)),
    );
    expect(ticked.state.todos.find((t) => t.key === "T1")?.status).toBe("done");
  });
  it("a passing validation on an unchanged tree does not complete a todo; on a changed one it does", () => {
    const completing = (changed: boolean) =>
      reported({
        outcome: "completed",
        changed,
        continuation: { kind: "goal_active" },
      }).state.todos.find((t) => t.key === "T1")?.status;
    expect(completing(false)).toBe("blocked");
    expect(completing(true)).toBe("done");
  });
  it("refuses an unknown tick, a wrong token, a late result, a duplicate, and a foreign todo", () => {
    const s = claimed();
    expect(
      expectRefused(
        applyTickResult(
          s,
          { tickId: uuid(999), leaseToken: lease1.leaseToken, result: result() },
          ctx(),
        ),
      ).code,
    ).toBe("not_found");
    expect(
      expectRefused(
        applyTickResult(
          s,
          { ...lease1, leaseToken: "other-token-xxxxxxxx", result: result() },
          ctx(),
        ),
      ).code,
    ).toBe("lease_not_held");
    expect(
      expectRefused(applyTickResult(s, { ...lease1, result: result() }, ctx(at(minutes(30))))).code,
    ).toBe("lease_expired");
    const once = reported({}, s).state;
    expect(
      expectRefused(applyTickResult(once, { ...lease1, result: result() }, ctx(at(minutes(6)))))
        .code,
    ).toBe("duplicate");
    expect(
      expectRefused(applyTickResult(s, { ...lease1, result: result({ todo: "T2" }) }, ctx())).code,
    ).toBe("invalid_input");
    const expired = expectOk(expireLeases(s, ctx(at(minutes(30))))).state;
    expect(
      expectRefused(applyTickResult(expired, { ...lease1, result: result() }, ctx(at(minutes(31)))))
        .code,
    ).toBe("lease_expired");
  });
  it("opens requested gates and adds proposed todos", () => {
    const r = reported({
      gateRequests: [{ question: "merge?", scopes: ["merge"] }],
      proposedTodos: [{ title: "more" }],
    });
    expect(r.state.gates[0]?.key).toBe("G1");
    expect(r.state.gates[0]?.todo).toBe("T1");
    expect(r.effects.some((e) => e.key === "gate:G1:opened")).toBe(true);
    expect(r.state.todos.find((t) => t.key === "T3")?.title).toBe("more");
  });
  it("asking for a gate that now holds its todo is not a stall; the other todo runs at once", () => {
    const s = claimed();
    const asked = reported(
      {
        outcome: "no_change",
        validation: null,
        gateRequests: [{ question: "deploy?", scopes: ["deploy:docs"] }],
      },
      s,
    ).state;
    expect(asked.goal.backoff).toEqual({ level: 0, stalledTicks: 0, until: null });
    expect(asked.todos.find((t) => t.key === "T1")?.requiredScopes).toEqual(["deploy:docs"]);
    const next = decide(asked, at(minutes(6)), "agent-b");
    expect([next.route, next.todo]).toEqual(["run", "T2"]);
  });
  it("a gate request still stalls when nothing holds the todo or the slice failed", () => {
    const noChange = (over: Record<string, unknown>) => ({
      ...lease1,
      result: result({ outcome: "no_change", validation: null, ...over }),
    });
    // The scope is granted already: the gate holds nothing, so the slice just did nothing.
    const granted = claimed();
    granted.goal.grantedScopes = ["deploy"];
    const ask = { gateRequests: [{ question: "deploy?", scopes: ["deploy:docs"] }] };
    const r1 = expectOk(applyTickResult(granted, noChange(ask), ctx(at(minutes(5))))).state;
    expect(r1.goal.backoff.stalledTicks).toBe(1);
    // The todo already needs ten scopes: the new gate cannot scope it, so it does not hold it.
    const full = claimed();
    const t1 = full.todos.find((t) => t.key === "T1");
    if (t1) t1.requiredScopes = Array.from({ length: 10 }, (_, i) => `area${i}`);
    const r2 = expectOk(applyTickResult(full, noChange(ask), ctx(at(minutes(5))))).state;
    expect(r2.goal.backoff.stalledTicks).toBe(1);
    // A failed slice is a failure whatever it asked for.
    const failed = expectOk(
      applyTickResult(
        claimed(),
        noChange({ ...ask, outcome: "failed", failure: "timeout" }),
        ctx(at(minutes(5))),
      ),
    ).state;
    expect(failed.goal.backoff.stalledTicks).toBe(1);
  });
});
