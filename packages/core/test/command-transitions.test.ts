import { describe, expect, it } from "vitest";
import {
  acceptTodo,
  approveGate,
  linkPullRequest,
  PrMonitor,
  reopenGatesForPush,
  requestStatus,
  setHarness,
  wakeGoal,
} from "../src/index.ts";
import {
  APP,
  at,
  ctx,
  expectOk,
  expectRefused,
  gate,
  minutes,
  STRANGER,
  state,
  T0,
  todo,
  WRITER,
} from "./fixtures.ts";

const HEAD = "abcdef1234";
const NEXT = "0123456789abcdef";

describe("setHarness", () => {
  it("switches the agent for the next ticks, once", () => {
    const r = expectOk(setHarness(state(), { harness: "codex" }, ctx(T0, WRITER)));
    expect(r.state.goal.harness).toBe("codex");
    expect(r.events.map((e) => e.type)).toEqual(["goal.harness_changed"]);
    expect(r.effects.some((e) => e.kind === "status")).toBe(true);
    expect(expectRefused(setHarness(r.state, { harness: "codex" }, ctx(T0, WRITER))).code).toBe(
      "invalid_input",
    );
  });
  it("refuses people without write access and names that are not harnesses", () => {
    expect(expectRefused(setHarness(state(), { harness: "codex" }, ctx(T0, STRANGER))).code).toBe(
      "not_authorized",
    );
    expect(
      expectRefused(setHarness(state(), { harness: "Rm -rf" }, ctx(T0, WRITER))).message,
    ).toContain("harness");
  });
});

describe("wakeGoal and requestStatus", () => {
  const waiting = () =>
    state(
      { todos: [todo("T1")] },
      { backoff: { level: 2, stalledTicks: 1, until: at(minutes(30)) } },
    );
  it("run now: the wait ends and exactly one dispatch is queued", () => {
    const r = expectOk(wakeGoal(waiting(), ctx(T0, WRITER)));
    expect(r.state.goal.backoff.until).toBeNull();
    expect(r.effects.filter((e) => e.kind === "dispatch").map((e) => e.key)).toEqual([
      `dispatch:v${r.state.goal.version}`,
    ]);
  });
  it("a paused goal is not woken; nor by someone without write access", () => {
    expect(expectRefused(wakeGoal(state({}, { status: "paused" }), ctx(T0, WRITER))).code).toBe(
      "goal_inactive",
    );
    expect(expectRefused(wakeGoal(waiting(), ctx(T0, STRANGER))).code).toBe("not_authorized");
  });
  it("status re-renders the status comment and changes nothing else", () => {
    const before = state({}, { status: "stopped" });
    const r = expectOk(requestStatus(before, ctx(T0, WRITER)));
    expect(r.effects.map((e) => e.kind)).toEqual(["status"]);
    expect(r.state.goal.status).toBe("stopped");
    expect(r.state.todos).toEqual(before.todos);
  });
});

describe("reopenGatesForPush", () => {
  const prGated = (status: "open" | "approved") =>
    state({
      todos: [todo("T1", { requiredScopes: ["merge"] })],
      gates: [
        gate("G1", ["merge"], {
          pr: { number: 5, headSha: HEAD, seenAt: null },
          status,
          ...(status === "approved" ? { resolvedBy: "writer", resolvedAt: T0 } : {}),
        }),
        gate("G2", ["deploy"], { pr: { number: 6, headSha: HEAD, seenAt: null } }),
      ],
    });
  it("a push reopens an approved gate on that PR, with a new comment and review request", () => {
    const r = expectOk(reopenGatesForPush(prGated("approved"), { pr: 5, headSha: NEXT }, ctx()));
    expect(r.state.gates[0]).toMatchObject({
      status: "open",
      resolvedBy: null,
      pr: { number: 5, headSha: NEXT },
    });
    // The other PR's gate is untouched.
    expect(r.state.gates[1]?.pr?.headSha).toBe(HEAD);
    expect(r.events.map((e) => e.type)).toEqual(["gate.reopened"]);
    expect(r.effects.map((e) => e.key)).toEqual(
      expect.arrayContaining([
        `gate:G1:reopened:${NEXT.slice(0, 12)}`,
        `gate:G1:review:${NEXT.slice(0, 12)}`,
      ]),
    );
    // An approval of the old head no longer counts; of the new head, it does.
    expect(
      expectRefused(approveGate(r.state, { gate: "G1", headSha: HEAD }, ctx(T0, WRITER))).code,
    ).toBe("stale_version");
    expectOk(approveGate(r.state, { gate: "G1", headSha: NEXT }, ctx(T0, WRITER)));
  });
  it("an open gate follows the new head with a new comment naming it, never silently", () => {
    const reported = new Date(T0.getTime() + 60_000);
    const r = expectOk(
      reopenGatesForPush(prGated("open"), { pr: 5, headSha: NEXT, reportedAt: reported }, ctx()),
    );
    expect(r.state.gates[0]?.pr).toEqual({ number: 5, headSha: NEXT, seenAt: reported });
    expect(r.effects.filter((e) => e.kind === "gate_comment").map((e) => e.key)).toEqual([
      `gate:G1:reopened:${NEXT.slice(0, 12)}`,
    ]);
  });
  it("a comment approval counts only if written after GitHub reported the gate's head", () => {
    const reported = new Date(T0.getTime() + 60_000);
    const moved = expectOk(
      reopenGatesForPush(prGated("open"), { pr: 5, headSha: NEXT, reportedAt: reported }, ctx()),
    ).state;
    const approve = (commentAt: Date) =>
      approveGate(moved, { gate: "G1", headSha: NEXT, commentAt }, ctx(T0, WRITER));
    // Written before the push (about the old head), or in the same second: refused, naming the head.
    for (const commentAt of [new Date(reported.getTime() - 5_000), reported]) {
      const refused = expectRefused(approve(commentAt));
      expect(refused.code).toBe("stale_version");
      expect(refused.message).toContain(NEXT.slice(0, 12));
    }
    expectOk(approve(new Date(reported.getTime() + 1_000)));
  });
  it("the same head again, or a PR no gate follows, changes nothing", () => {
    expect(
      expectRefused(reopenGatesForPush(prGated("approved"), { pr: 5, headSha: HEAD }, ctx())).code,
    ).toBe("invalid_state");
    expect(
      expectRefused(reopenGatesForPush(prGated("approved"), { pr: 9, headSha: NEXT }, ctx())).code,
    ).toBe("invalid_state");
  });
  it("a linked PR's recorded head follows the push too", () => {
    const linked = expectOk(
      linkPullRequest(
        state(),
        { number: 7, headRef: "feature", headSha: HEAD, state: "open" },
        ctx(T0, WRITER),
      ),
    ).state;
    const r = expectOk(reopenGatesForPush(linked, { pr: 7, headSha: NEXT }, ctx(T0, APP)));
    expect(r.state.pullRequests[0]?.headSha).toBe(NEXT);
  });
});

describe("linkPullRequest", () => {
  const input = { number: 7, headRef: "feature", headSha: HEAD, state: "open" as const };
  it("a writer links a PR once, with its head", () => {
    const r = expectOk(linkPullRequest(state(), input, ctx(T0, WRITER)));
    expect(r.state.pullRequests).toEqual([
      {
        number: 7,
        todo: null,
        headRef: "feature",
        headSha: HEAD,
        state: "open",
        monitor: PrMonitor.parse({}),
      },
    ]);
    expect(expectRefused(linkPullRequest(r.state, input, ctx(T0, WRITER))).code).toBe("duplicate");
  });
  it("refuses someone without write access", () => {
    expect(expectRefused(linkPullRequest(state(), input, ctx(T0, STRANGER))).code).toBe(
      "not_authorized",
    );
  });
});

describe("acceptTodo", () => {
  const proposals = () =>
    state({
      todos: [
        todo("T1", { origin: "agent", title: "Cache the widgets" }),
        todo("T2", { origin: "pr-monitor", kind: "repair" }),
        todo("T3"),
        todo("T4", { origin: "agent", status: "dropped" }),
      ],
    });
  it("a writer takes an agent's proposal on as theirs, with a receipt", () => {
    const r = expectOk(acceptTodo(proposals(), { todo: "T1" }, ctx(T0, WRITER)));
    expect(r.state.todos[0]?.origin).toBe("human");
    expect(r.events.map((e) => e.type)).toContain("todo.accepted");
    expect(r.effects.map((e) => e.key)).toContain("receipt:todo:T1:accepted");
  });
  it("refuses outsiders, LoopX's own todos, writers' todos and finished ones", () => {
    const s = proposals();
    expect(expectRefused(acceptTodo(s, { todo: "T1" }, ctx(T0, STRANGER))).code).toBe(
      "not_authorized",
    );
    for (const key of ["T2", "T3", "T4"]) {
      expect(expectRefused(acceptTodo(s, { todo: key }, ctx(T0, WRITER))).code, key).toBe(
        "invalid_state",
      );
    }
    expect(expectRefused(acceptTodo(s, { todo: "T9" }, ctx(T0, WRITER))).code).toBe("not_found");
  });
});
