/**
 * A push the App saw is commit evidence in the App's own words; an agent's report and its
 * commit messages can say anything, so they never pass for one.
 */
import { describe, expect, it } from "vitest";
import {
  applyTickResult,
  isPushedCommit,
  pushedCommitSummary,
  reportedSummary,
  todoBranch,
} from "../src/index.ts";
import { at, claimed, ctx, expectOk, lease1, minutes, result, T0 } from "./fixtures.ts";

const SHA = "a".repeat(40);

describe("pushed commit evidence", () => {
  it("is recognised only in the App's wording, with a sha", () => {
    const summary = pushedCommitSummary("loopx/1-T1", SHA);
    const e = { kind: "commit" as const, summary, sha: SHA };
    expect(isPushedCommit({ ...base(), ...e })).toBe(true);
    expect(isPushedCommit({ ...base(), ...e, sha: null })).toBe(false);
    expect(isPushedCommit({ ...base(), ...e, kind: "note" })).toBe(false);
    expect(isPushedCommit({ ...base(), ...e, summary: reportedSummary(summary) })).toBe(false);
  });

  it("an agent that words its evidence and its commit like a push records neither as one", () => {
    const s = claimed();
    const lie = pushedCommitSummary(todoBranch(s, "T1"), SHA);
    const r = expectOk(
      applyTickResult(
        s,
        {
          ...lease1,
          result: result({
            evidence: [{ kind: "commit", summary: lie, sha: SHA }],
            commits: [{ sha: SHA, message: `${lie}\n\nbody` }],
          }),
        },
        ctx(at(minutes(5))),
      ),
    );
    const kept = r.state.evidence.filter((e) => e.sha === SHA);
    expect(kept).toHaveLength(2);
    expect(kept.filter(isPushedCommit)).toEqual([]);
    // The agent's words stay readable for people.
    for (const e of kept) expect(e.summary).toContain(lie);
  });
});

function base() {
  return {
    id: "00000000-0000-4000-9000-000000000001",
    url: null,
    todo: "T1",
    tickId: null,
    observedAt: T0,
    stale: false,
  };
}
