import { agentClaimSummary, HarnessResult } from "@loopx/core";
import { describe, expect, it } from "vitest";
import { AgentClaim, type SliceOutcome, type SliceReport, toHarnessResult } from "../src/index.ts";

function report(over: Partial<SliceReport> = {}): SliceReport {
  return {
    harness: "shell",
    todo: "T1",
    outcome: "validated_progress",
    failure: null,
    reason: "validation passed; the work tree changed",
    cost: { usd: 0.12, tokens: 3400, runnerMinutes: 1.5 },
    turns: 4,
    sessionId: "sess-1",
    claim: {
      outcome: "completed",
      handoff: { done: "did it", next: "nothing", questions: [] },
      evidence: [{ kind: "test", summary: "npm test green", url: null, sha: null }],
      continuation: { kind: "no_followup", reason: "done" },
      proposedTodos: [
        {
          title: "Write docs",
          detail: "",
          requiredScopes: ["deploy:docs", "NOT A SCOPE"],
          paths: ["docs/**", "../outside", "/etc/passwd"],
        },
      ],
      gateRequests: [{ question: "Merge?", scopes: ["merge", "NOT A SCOPE"] }],
    },
    claimError: null,
    delta: { known: true, changed: true, commits: [], changedFiles: ["a.ts"] },
    validation: {
      command: "npm test",
      exitCode: 0,
      passed: true,
      summary: "exit 0\nok",
      timedOut: false,
      durationMs: 10,
      outputTail: "ok",
    },
    process: { stop: "exited", exitCode: 0, signal: null, durationMs: 100, pid: 1 },
    jail: { uid: 1_000_000_001 },
    jailFailure: null,
    withheld: [],
    outputTail: "…",
    outputBytes: 1,
    outputTruncated: false,
    ...over,
  };
}

describe("toHarnessResult", () => {
  it.each<[SliceOutcome, string, string | null]>([
    ["validated_progress", "progress", null],
    ["validated_completion", "completed", null],
    ["no_progress", "no_change", null],
    ["validation_failed", "failed", "validation_failed"],
    ["timeout", "failed", "timeout"],
    ["turn_limit", "failed", "turn_limit"],
    ["over_budget", "failed", "budget_exceeded"],
    ["host_failure", "failed", "host_failure"],
  ])("%s → %s / %s", (outcome, expected, failure) => {
    const r = toHarnessResult(report({ outcome }), "T1");
    expect(r.outcome).toBe(expected);
    expect(r.failure).toBe(failure);
    // Only a completion carries the agent's continuation.
    expect(r.continuation).toEqual(
      outcome === "validated_completion" ? { kind: "no_followup", reason: "done" } : null,
    );
    expect(r.cost).toEqual({ usd: 0.12, tokens: 3400, runnerMinutes: 1.5 });
  });

  it("a harness error keeps its failure kind", () => {
    const r = toHarnessResult(report({ outcome: "host_failure", failure: "harness_error" }), "T1");
    expect(r.failure).toBe("harness_error");
    expect(r.evidence.some((e) => e.kind === "log")).toBe(true);
  });

  it("clamps a verbose agent into the schema's bounds instead of refusing it", () => {
    const long = "x".repeat(10_000);
    const r = toHarnessResult(
      report({
        claim: {
          outcome: "progress",
          handoff: { done: long, next: long, questions: Array(20).fill(long) },
          evidence: Array.from({ length: 30 }, () => ({
            kind: "note" as const,
            summary: long,
            url: null,
            sha: null,
          })),
          continuation: null,
          proposedTodos: Array.from({ length: 15 }, () => ({
            title: long,
            detail: long,
            requiredScopes: [],
            paths: [],
          })),
          gateRequests: [],
        },
      }),
      "T1",
    );
    const h = r.handoff;
    expect(h.done.length + h.next.length + h.questions.join("").length).toBeLessThanOrEqual(3000);
    expect(r.evidence).toHaveLength(20);
    expect(r.proposedTodos).toHaveLength(10);
  });

  it("passes a plan's revisions on with malformed keys dropped, and none when it gave none", () => {
    const base = report();
    const claim = base.claim ?? undefined;
    if (!claim) throw new Error("the fixture has a claim");
    const r = toHarnessResult(
      report({
        claim: {
          ...claim,
          revisions: {
            drop: ["T2", "t3", "T0"],
            reword: [
              { todo: "T4", title: "x".repeat(300), detail: "" },
              { todo: "nope", title: "y", detail: "" },
            ],
            order: ["T5", "T4"],
          },
        },
      }),
      "T1",
    );
    expect(r.revisions?.drop).toEqual(["T2"]);
    expect(r.revisions?.reword.map((w) => [w.todo, w.title.length])).toEqual([["T4", 256]]);
    expect(r.revisions?.order).toEqual(["T5", "T4"]);
    expect(toHarnessResult(base, "T1").revisions).toBeUndefined();
  });

  it("keeps only valid scopes in gate requests and proposed todos, repository-relative paths, and the validation once, as the validation", () => {
    const r = toHarnessResult(report(), "T1");
    expect(r.gateRequests).toEqual([{ question: "Merge?", scopes: ["merge"] }]);
    expect(r.proposedTodos).toEqual([
      { title: "Write docs", detail: "", requiredScopes: ["deploy:docs"], paths: ["docs/**"] },
    ]);
    // The kernel records the validation as evidence; a copy here would list it twice.
    expect(r.evidence).toEqual([
      { kind: "test", summary: agentClaimSummary("npm test green"), url: null, sha: null },
    ]);
    expect(r.validation).toEqual({
      command: "npm test",
      exitCode: 0,
      passed: true,
      summary: "exit 0\nok",
    });
  });

  it("without a claim, writes a handoff that says what happened", () => {
    const r = toHarnessResult(
      report({ outcome: "timeout", reason: "wall-clock limit of 1000 ms reached", claim: null }),
      "T1",
    );
    expect(r.handoff.done).toContain("[timeout] wall-clock limit");
    expect(r.handoff.next).toContain("T1");
  });
});

describe("toHarnessResult: a job the agent names", () => {
  const base = report();
  const claim = base.claim;
  if (!claim) throw new Error("the fixture has a claim");

  it("passes a job request on for the App to check", () => {
    const r = toHarnessResult(
      report({ claim: { ...claim, job: { name: "long-tests", inputs: { suite: "e2e", n: 2 } } } }),
      "T1",
    );
    expect(r.job).toEqual({ name: "long-tests", inputs: { suite: "e2e", n: 2 } });
  });

  it("leaves out a job the tick API cannot take, and no job at all when none is named", () => {
    expect(
      toHarnessResult(report({ claim: { ...claim, job: { name: "", inputs: {} } } }), "T1").job,
    ).toBeUndefined();
    expect(toHarnessResult(report(), "T1").job).toBeUndefined();
  });
});

describe("toHarnessResult: a proposed todo that builds on another", () => {
  it("reads `after` from the result file, null as the prompt shows it, and passes it on", () => {
    const claim = AgentClaim.parse({
      outcome: "no_change",
      handoff: { done: "planned", next: "T2" },
      proposedTodos: [
        { title: "Parse durations", after: null },
        { title: "Reject negatives", after: "  Parse durations " },
      ],
    });
    const r = toHarnessResult(report({ outcome: "no_progress", claim }), "T1");
    expect(r.proposedTodos.map((t) => t.after)).toEqual([undefined, "Parse durations"]);
    // What the tick API then accepts.
    expect(HarnessResult.parse(r).proposedTodos[1]?.after).toBe("Parse durations");
  });
});
