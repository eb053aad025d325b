import { describe, expect, it } from "vitest";
import {
  approveGate,
  CI_GRACE_MS,
  observePullRequest,
  type PrObservation,
  PullRequest,
} from "../src/index.ts";
import { APP, at, ctx, expectOk, expectRefused, OWNER, state, T0, todo } from "./fixtures.ts";

const HEAD = "abcdef1234567";
const NEXT = "0123456789abc";

function linked() {
  return state({
    todos: [todo("T1"), todo("T2")],
    pullRequests: [
      PullRequest.parse({
        number: 5,
        todo: "T1",
        headRef: "loopx/42-T1",
        headSha: HEAD,
        state: "open",
      }),
    ],
  });
}
const seen = (over: Partial<PrObservation> = {}): PrObservation => ({
  number: 5,
  state: "open",
  headSha: HEAD,
  mergeable: true,
  required: ["ci"],
  checks: { sha: HEAD, list: [] },
  ...over,
});
/** `ci` passed on the head; one workflow run per id waits for approval. */
const waitingRuns = (runIds: number[]) =>
  seen({
    checks: {
      sha: HEAD,
      list: [
        { name: "ci", status: "success" },
        ...runIds.map((runId) => ({
          name: `run ${runId}`,
          status: "action_required" as const,
          runId,
        })),
      ],
    },
  });
const openScopes = (s: ReturnType<typeof linked>) =>
  s.gates.filter((g) => g.status === "open").map((g) => g.scopes);

describe("CI that cannot say green asks the owners, once", () => {
  it("green checks on a base that requires none: one question, no merge gate", () => {
    const obs = seen({
      required: [],
      checks: { sha: HEAD, list: [{ name: "ci", status: "success" }] },
    });
    const r = expectOk(observePullRequest(linked(), obs, ctx(T0, APP)));
    expect(openScopes(r.state)).toEqual([["ci-unrequired:5"]]);
    expect(r.state.gates[0]?.question).toContain("checks:");
    expect(expectRefused(observePullRequest(r.state, obs, ctx(T0, APP))).code).toBe("duplicate");
    // A new head asks nothing new: the repository's settings, not the head, lack checks.
    const pushed = seen({ headSha: NEXT, required: [], checks: { sha: NEXT, list: [] } });
    const again = expectOk(observePullRequest(r.state, pushed, ctx(T0, APP))).state;
    expect(openScopes(again)).toEqual([["ci-unrequired:5"]]);
    // Once the base requires `ci` and it passes, the question closes and the merge gate opens.
    const required = seen({
      headSha: NEXT,
      checks: { sha: NEXT, list: [{ name: "ci", status: "success" }] },
    });
    const fixed = expectOk(observePullRequest(again, required, ctx(T0, APP))).state;
    expect(fixed.gates.find((g) => g.scopes.includes("ci-unrequired:5"))?.status).toBe("expired");
    expect(openScopes(fixed)).toEqual([["merge"]]);
  });

  it("no required run ten minutes after the push: 'CI did not run', never green", () => {
    const first = expectOk(observePullRequest(linked(), seen(), ctx(T0, APP))).state;
    expect(first.gates).toEqual([]);
    const early = observePullRequest(first, seen(), ctx(at(CI_GRACE_MS - 1000), APP));
    expect(expectRefused(early).code).toBe("duplicate");
    const late = expectOk(observePullRequest(first, seen(), ctx(at(CI_GRACE_MS), APP))).state;
    expect(openScopes(late)).toEqual([["ci:5"]]);
    expect(late.gates[0]?.question).toMatch(/^CI did not run on #5/);
    // Asked once: later readings of the same silent head add nothing.
    const later = observePullRequest(late, seen(), ctx(at(3 * CI_GRACE_MS), APP));
    expect(expectRefused(later).code).toBe("duplicate");
    // The checks show up after all: the question closes.
    const ran = seen({ checks: { sha: HEAD, list: [{ name: "ci", status: "success" }] } });
    const green = expectOk(observePullRequest(late, ran, ctx(at(3 * CI_GRACE_MS), APP))).state;
    expect(green.gates.find((g) => g.scopes.includes("ci:5"))?.status).toBe("expired");
    expect(openScopes(green)).toEqual([["merge"]]);
  });

  it("a [skip ci] head with green checks asks instead of opening the merge gate", () => {
    const obs = seen({
      skipCi: true,
      checks: { sha: HEAD, list: [{ name: "ci", status: "success" }] },
    });
    const r = expectOk(observePullRequest(linked(), obs, ctx(T0, APP))).state;
    expect(openScopes(r)).toEqual([["ci:5"]]);
    expect(r.gates[0]?.question).toContain("skip CI");
  });

  it("neutral and skipped required checks are not success", () => {
    for (const status of ["neutral", "skipped"] as const) {
      const obs = seen({ checks: { sha: HEAD, list: [{ name: "ci", status }] } });
      const r = expectOk(observePullRequest(linked(), obs, ctx(T0, APP))).state;
      expect(openScopes(r)).toEqual([["ci:5"]]);
      expect(r.gates[0]?.question).toContain(`ci (${status})`);
    }
  });

  it("runs waiting for approval become a gate on the PR's todo; a merge gate expires", () => {
    const green = seen({ checks: { sha: HEAD, list: [{ name: "ci", status: "success" }] } });
    const ready = expectOk(observePullRequest(linked(), green, ctx(T0, APP))).state;
    expect(openScopes(ready)).toEqual([["merge"]]);
    const waiting = waitingRuns([77]);
    const r = expectOk(observePullRequest(ready, waiting, ctx(T0, APP))).state;
    expect(openScopes(r)).toEqual([["ci-approval:5"]]);
    const gate = r.gates.find((g) => g.scopes.includes("ci-approval:5"));
    expect(gate?.todo).toBe("T1");
    expect(gate?.question).toContain("Approve and run");
    expect(r.gates.find((g) => g.scopes.includes("merge"))?.status).toBe("expired");
  });

  it("a writer's approval of the gate asks for exactly the waiting runs of the head", () => {
    const waiting = waitingRuns([77, 78]);
    const gated = expectOk(observePullRequest(linked(), waiting, ctx(T0, APP))).state;
    const key = gated.gates[0]?.key ?? "";
    const approved = expectOk(approveGate(gated, { gate: key }, ctx(T0, OWNER)));
    expect(approved.effects.filter((e) => e.kind === "approve_runs")).toEqual([
      {
        kind: "approve_runs",
        key: `gate:${key}:approve_runs@${HEAD}`,
        gate: key,
        pr: 5,
        runIds: [77, 78],
      },
    ]);
    // The app cannot approve on a person's behalf.
    expect(expectRefused(approveGate(gated, { gate: key }, ctx(T0, APP))).code).toBe(
      "not_authorized",
    );
  });

  it("a head moved by another transition gets its own grace, and the old head's question closes", () => {
    const late = at(CI_GRACE_MS);
    const asked = expectOk(observePullRequest(linked(), seen(), ctx(T0, APP))).state;
    const silent = expectOk(observePullRequest(asked, seen(), ctx(late, APP))).state;
    expect(openScopes(silent)).toEqual([["ci:5"]]);
    // A push is tracked elsewhere first (the PR's head moves without an observation).
    const pr = silent.pullRequests[0];
    if (!pr) throw new Error("no PR");
    const pushed = { ...silent, pullRequests: [{ ...pr, headSha: NEXT }] };
    const later = at(3 * CI_GRACE_MS);
    const next = seen({ headSha: NEXT, checks: { sha: NEXT, list: [] } });
    const r = expectOk(observePullRequest(pushed, next, ctx(later, APP))).state;
    expect(r.gates.find((g) => g.scopes.includes("ci:5"))?.status).toBe("expired");
    expect(openScopes(r)).toEqual([]);
    expect(r.pullRequests[0]?.monitor).toMatchObject({ headSeenSha: NEXT, headSeenAt: later });
  });

  it("a PR that closes takes its CI questions with it", () => {
    const asked = expectOk(
      observePullRequest(linked(), seen({ required: [] }), ctx(T0, APP)),
    ).state;
    expect(openScopes(asked)).toEqual([["ci-unrequired:5"]]);
    const closed = expectOk(
      observePullRequest(asked, { number: 5, state: "closed", headSha: HEAD }, ctx(T0, APP)),
    ).state;
    expect(openScopes(closed)).toEqual([]);
  });
});
