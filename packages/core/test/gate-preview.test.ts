import { describe, expect, it } from "vitest";
import {
  CI_GRACE_MS,
  GoalState,
  gatePreview,
  gatePreviewWords,
  observePullRequest,
  PullRequest,
} from "../src/index.ts";
import { APP, ctx, expectOk, expectRefused, gate, state, T0, todo } from "./fixtures.ts";

const HEAD = "abcdef1234567890";
const NEXT = "0123456789abcdef";
const SIZE = { files: 3, insertions: 40, deletions: 2 };

function linked(monitor: Record<string, unknown> = {}, headSha = HEAD) {
  return state({
    todos: [todo("T1")],
    gates: [gate("G1", ["merge"], { pr: { number: 5, headSha: HEAD, seenAt: null } })],
    pullRequests: [
      PullRequest.parse({
        number: 5,
        todo: "T1",
        headRef: "loopx/42-T1",
        headSha,
        state: "open",
        monitor: {
          required: ["ci", "lint"],
          headSeenSha: headSha,
          headSeenAt: T0,
          checksSha: headSha,
          size: { sha: headSha, ...SIZE },
          ...monitor,
        },
      }),
    ],
  });
}

const preview = (s: ReturnType<typeof linked>, now = T0) => {
  const g = s.gates[0];
  if (!g) throw new Error("no gate");
  return gatePreview(s, g, now);
};

describe("gatePreview: what approving a PR-bound gate covers", () => {
  it("a gate on no pull request has no preview", () => {
    const s = state({ gates: [gate("G1", ["deploy"])] });
    expect(gatePreview(s, s.gates[0] ?? gate("G0", []), T0)).toBeNull();
  });

  it("names the PR, the head, GitHub's counts and the CI verdict of that head", () => {
    const green = [
      { name: "ci", status: "success" },
      { name: "lint", status: "success" },
    ];
    const p = preview(linked({ checks: green }));
    expect(p).toEqual({
      pr: 5,
      head: HEAD,
      size: SIZE,
      ci: "every required check passed (ci, lint)",
    });
    expect(gatePreviewWords(p ?? ({} as never))).toBe(
      `#5 at ${HEAD.slice(0, 12)} · 3 files, +40 −2 · CI: every required check passed (ci, lint)`,
    );
  });

  it("says what CI lacks: running, failing, never reported", () => {
    const running = preview(linked({ checks: [{ name: "ci", status: "success" }] }));
    expect(running?.ci).toBe("running; waiting for lint");
    const red = preview(linked({ checks: [{ name: "lint", status: "failure" }] }));
    expect(red?.ci).toBe("failing: lint");
    const silent = preview(linked({ checks: [] }), new Date(T0.getTime() + CI_GRACE_MS));
    expect(silent?.ci).toBe("required checks never reported: ci, lint");
  });

  it("facts about another head are never shown as the gate's", () => {
    // The PR moved on: its size and checks are the new head's, not what the gate asks about.
    const moved = preview(linked({ checks: [{ name: "ci", status: "success" }] }, NEXT));
    expect(moved).toMatchObject({ head: HEAD, size: null, ci: "not read for this head yet" });
    expect(gatePreviewWords(moved ?? ({} as never))).toContain("size not read for this head yet");
    // Counts read for an older head of the same PR are not this head's either.
    const stale = preview(linked({ size: { sha: NEXT, ...SIZE } }));
    expect(stale?.size).toBeNull();
  });

  it("the monitor keeps the counts of the head it read, and forgets them when the head moves", () => {
    const s = linked({ size: null });
    const read = expectOk(
      observePullRequest(s, { number: 5, state: "open", headSha: HEAD, size: SIZE }, ctx(T0, APP)),
    );
    expect(read.state.pullRequests[0]?.monitor.size).toEqual({ sha: HEAD, ...SIZE });
    const pushed = expectOk(
      observePullRequest(read.state, { number: 5, state: "open", headSha: NEXT }, ctx(T0, APP)),
    );
    expect(pushed.state.pullRequests[0]?.monitor.size).toBeNull();
  });

  it("the same counts read again, after the goal was stored and loaded, are nothing new", () => {
    const reading = { number: 5, state: "open" as const, headSha: HEAD, size: SIZE };
    const read = expectOk(observePullRequest(linked({ size: null }), reading, ctx(T0, APP)));
    // What the store hands back: the state parsed from its JSON, keys in the schema's order.
    const stored = GoalState.parse(JSON.parse(JSON.stringify(read.state)));
    expect(expectRefused(observePullRequest(stored, reading, ctx(T0, APP))).code).toBe("duplicate");
  });
});
