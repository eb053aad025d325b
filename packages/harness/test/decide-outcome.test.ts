import { describe, expect, it } from "vitest";
import type { ClaimRead } from "../src/agent-claim.ts";
import { AgentClaim } from "../src/agent-claim.ts";
import { decideOutcome, type OutcomeFacts } from "../src/decide-outcome.ts";

function facts(claim: Record<string, unknown>, changed: boolean): OutcomeFacts {
  const read: ClaimRead = { ok: true, claim: AgentClaim.parse(claim), raw: "" };
  return {
    stop: "exited",
    exitCode: 0,
    spawnError: null,
    verdict: { kind: "ok", message: "" },
    reading: { usd: 0, tokens: 0, turns: 1, sessionId: null },
    limits: { wallMs: 1000, idleMs: 1000, maxTurns: 5, maxUsd: 1 },
    claim: read,
    validation: null,
    delta: { known: true, changed, commits: [], changedFiles: changed ? ["a.ts"] : [] },
  };
}

const done = {
  outcome: "completed",
  handoff: { done: "I ran the tests… trust me", next: "" },
  continuation: { kind: "goal_active" },
};

describe("decideOutcome: an unchanged tree", () => {
  it("passes a completion claim on as a claim, for the kernel to hold until evidence", () => {
    expect(decideOutcome(facts(done, false)).outcome).toBe("claimed_completion");
    expect(decideOutcome(facts(done, true)).outcome).toBe("validated_completion");
    expect(decideOutcome(facts(done, false)).reason).toContain("did not change");
  });
  it("says a plan changes no file by nature, and still passes it on as a claim", () => {
    const plan = { ...done, proposedTodos: [{ title: "List the gears" }, { title: "Publish" }] };
    const decided = decideOutcome(facts(plan, false));
    expect(decided.outcome).toBe("claimed_completion");
    expect(decided.reason).toContain("a plan of 2 proposed todo(s)");
  });
  it("is no progress when the agent does not claim a completion", () => {
    const progress = { ...done, outcome: "progress", continuation: null };
    expect(decideOutcome(facts(progress, false)).outcome).toBe("no_progress");
    expect(decideOutcome(facts({ ...done, continuation: null }, false)).outcome).toBe(
      "no_progress",
    );
  });
});

describe("decideOutcome: the metering proxy refused past the ceiling", () => {
  it("is over_budget, not the harness's own failure, however the harness exited", () => {
    const f = facts(done, true);
    const refused = {
      ...f,
      exitCode: 1,
      verdict: { kind: "error" as const, message: "API Error: 400 budget spent" },
      reading: { ...f.reading, usd: 1, overCap: 2 },
    };
    const decided = decideOutcome(refused);
    expect(decided.outcome).toBe("over_budget");
    expect(decided.reason).toBe(
      "spent $1.0000, the slice's ceiling of $1; the metering proxy refused 2 further model call(s)",
    );
  });
  it("a harness error with nothing refused stays a harness error", () => {
    const f = facts(done, true);
    const failed = {
      ...f,
      exitCode: 1,
      verdict: { kind: "error" as const, message: "boom" },
      reading: { ...f.reading, overCap: 0 },
    };
    expect(decideOutcome(failed).outcome).toBe("host_failure");
  });
});
