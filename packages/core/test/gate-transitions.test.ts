import { describe, expect, it } from "vitest";
import { approveGate, claimTodo, openGate, rejectGate, reopenGatesForPush } from "../src/index.ts";
import {
  APP,
  at,
  claimInput,
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

describe("gates", () => {
  const gated = () =>
    state(
      {
        todos: [todo("T1", { requiredScopes: ["merge"] })],
        gates: [gate("G1", ["merge"], { pr: { number: 5, headSha: "abcdef1234", seenAt: null } })],
      },
      { backoff: { level: 2, stalledTicks: 2, until: at(minutes(10)) } },
    );
  it("openGate posts a gate comment and a review request for a PR-bound gate", () => {
    const r = expectOk(
      openGate(
        state({ todos: [todo("T1")] }),
        { question: "Deploy?", scopes: ["deploy"], pr: { number: 3, headSha: "abcdef1" } },
        ctx(),
      ),
    );
    expect(r.effects.find((e) => e.kind === "gate_comment")?.key).toBe("gate:G1:opened");
    const rr = r.effects.find((e) => e.kind === "review_request");
    expect(rr?.kind === "review_request" && rr.reviewers).toEqual(["octo-owner"]);
    expect(
      expectRefused(openGate(state(), { question: "x", scopes: [] }, ctx())).message,
    ).toContain("scopes");
  });
  it("approveGate by a writer grants, resets backoff, posts a receipt, and dispatches", () => {
    const r = expectOk(
      approveGate(gated(), { gate: "G1", note: "ship it", headSha: "abcdef1234" }, ctx(T0, WRITER)),
    );
    expect(r.state.gates[0]?.status).toBe("approved");
    expect(r.state.goal.backoff.until).toBeNull();
    expect(r.effects.some((e) => e.key === "receipt:gate:G1:approved@abcdef1234")).toBe(true);
    expect(r.effects.some((e) => e.kind === "dispatch")).toBe(true);
  });
  it("a PR-bound gate reopened by a push gets a second receipt when approved again", () => {
    const first = expectOk(
      approveGate(gated(), { gate: "G1", headSha: "abcdef1234" }, ctx(T0, WRITER)),
    );
    const pushed = expectOk(
      reopenGatesForPush(first.state, { pr: 5, headSha: "fedcba9876" }, ctx(at(minutes(1)))),
    );
    expect(pushed.state.gates[0]?.status).toBe("open");
    const again = expectOk(
      approveGate(pushed.state, { gate: "G1", headSha: "fedcba9876" }, ctx(at(minutes(2)), WRITER)),
    );
    const receipts = [...first.effects, ...again.effects]
      .filter((e) => e.kind === "receipt")
      .map((e) => e.key);
    expect(new Set(receipts).size).toBe(2);
  });
  it("a push delivered after a later one moves no gate back", () => {
    const first = expectOk(
      approveGate(gated(), { gate: "G1", headSha: "abcdef1234" }, ctx(T0, WRITER)),
    );
    const later = expectOk(
      reopenGatesForPush(
        first.state,
        { pr: 5, headSha: "fedcba9876", before: "abcdef1234" },
        ctx(at(minutes(1))),
      ),
    );
    expect(later.state.gates[0]?.pr?.headSha).toBe("fedcba9876");
    // The push that made a head in between, delivered last: its `before` is no head the gate knows.
    const stale = reopenGatesForPush(
      later.state,
      { pr: 5, headSha: "1234567890", before: "abcdef1234" },
      ctx(at(minutes(2))),
    );
    expect(expectRefused(stale).code).toBe("out_of_order");
    // A push that follows the known head moves the gate on.
    const next = expectOk(
      reopenGatesForPush(
        later.state,
        { pr: 5, headSha: "1234567890", before: "fedcba9876" },
        ctx(at(minutes(2))),
      ),
    );
    expect(next.state.gates[0]?.pr?.headSha).toBe("1234567890");
  });
  it("a gate without a PR keeps one receipt key", () => {
    const s = state({
      todos: [todo("T1", { requiredScopes: ["deploy"] })],
      gates: [gate("G1", ["deploy"])],
    });
    const r = expectOk(approveGate(s, { gate: "G1" }, ctx(T0, WRITER)));
    expect(r.effects.some((e) => e.key === "receipt:gate:G1:approved")).toBe(true);
  });
  it("refuses an untrusted approver, a stale head, a missing gate, and a second approval", () => {
    expect(expectRefused(approveGate(gated(), { gate: "G1" }, ctx(T0, STRANGER))).code).toBe(
      "not_authorized",
    );
    expect(expectRefused(approveGate(gated(), { gate: "G1" }, ctx(T0, APP))).code).toBe(
      "not_authorized",
    );
    expect(
      expectRefused(approveGate(gated(), { gate: "G1", headSha: "0000000" }, ctx(T0, WRITER))).code,
    ).toBe("stale_version");
    expect(expectRefused(approveGate(gated(), { gate: "G7" }, ctx(T0, WRITER))).code).toBe(
      "not_found",
    );
    const once = expectOk(approveGate(gated(), { gate: "G1" }, ctx(T0, WRITER))).state;
    expect(expectRefused(approveGate(once, { gate: "G1" }, ctx(T0, WRITER))).code).toBe(
      "duplicate",
    );
  });
  it("rejectGate needs a reason and leaves covered todos blocked", () => {
    expect(
      expectRefused(rejectGate(gated(), { gate: "G1", reason: "" }, ctx(T0, WRITER))).code,
    ).toBe("invalid_input");
    const r = expectOk(rejectGate(gated(), { gate: "G1", reason: "not yet" }, ctx(T0, WRITER)));
    expect(r.state.gates[0]?.status).toBe("rejected");
    expect(r.effects.some((e) => e.key === "receipt:gate:G1:rejected")).toBe(true);
    expect(expectRefused(claimTodo(r.state, claimInput(1), ctx())).code).toBe("invalid_state");
  });
});
