import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HarnessResult, ResultRequest } from "../../packages/core/src/index.ts";
import {
  type AgentClaim,
  readAgentClaim,
  type SliceReport,
  toHarnessResult,
} from "../../packages/harness/src/index.ts";

/**
 * Fuzzed harness results, at both ends. The agent's `$LOOPX_RESULT` file is read without a
 * crash and refused with a reason when it is not JSON, too large or malformed; a well-formed
 * but verbose claim is clamped into a result the tick API accepts; and the API's own schema
 * judges any body without throwing.
 */
const dir = mkdtempSync(join(tmpdir(), "loopx-hostile-claim-"));
let n = 0;
async function readText(text: string | Buffer) {
  const path = join(dir, `result-${n++}.json`);
  writeFileSync(path, text);
  return readAgentClaim(path);
}

const text = fc.string({ unit: "grapheme", maxLength: 3000 });
const claim: fc.Arbitrary<AgentClaim> = fc.record({
  outcome: fc.constantFrom("progress", "completed", "no_change", "failed"),
  handoff: fc.record({
    done: text,
    next: text,
    questions: fc.array(text, { maxLength: 30 }),
  }),
  evidence: fc.array(
    fc.record({
      kind: fc.constantFrom("test", "commit", "pr", "check", "log", "note", "metric"),
      summary: text.filter((s) => s.trim() !== ""),
      url: fc.constant(null),
      sha: fc.constant(null),
    }),
    { maxLength: 40 },
  ),
  continuation: fc.constant(null),
  proposedTodos: fc.array(
    fc.record({
      title: text.filter((s) => s.trim() !== ""),
      detail: text,
      requiredScopes: fc.array(fc.oneof(fc.constantFrom("deploy", "write:.github"), fc.string()), {
        maxLength: 12,
      }),
      paths: fc.array(fc.oneof(fc.constantFrom("src/**", "../up", "/abs", "a\nb"), fc.string()), {
        maxLength: 25,
      }),
    }),
    { maxLength: 20 },
  ),
  gateRequests: fc.array(
    fc.record({
      question: text.filter((s) => s.trim() !== ""),
      scopes: fc.array(fc.oneof(fc.constantFrom("merge", "write:.github"), fc.string()), {
        minLength: 1,
        maxLength: 12,
      }),
    }),
    { maxLength: 6 },
  ),
});

function reportWith(c: AgentClaim): SliceReport {
  return {
    harness: "shell",
    todo: "T1",
    outcome: "validated_progress",
    failure: null,
    reason: "validation passed; the work tree changed",
    cost: { usd: 0.1, tokens: 100, runnerMinutes: 1 },
    turns: 1,
    sessionId: null,
    claim: c,
    claimError: null,
    delta: { known: true, changed: true, commits: [], changedFiles: ["a.ts"] },
    validation: null,
    process: { stop: "exited", exitCode: 0, signal: null, durationMs: 10, pid: 1 },
    jail: { uid: 1_000_000_001 },
    jailFailure: null,
    withheld: [],
    outputTail: "",
    outputBytes: 0,
    outputTruncated: false,
  };
}

describe("hostile: fuzzed harness results", () => {
  it("a result file that is not JSON is refused, saying so", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (t) => {
        let json = true;
        try {
          JSON.parse(t);
        } catch {
          json = false;
        }
        const read = await readText(t);
        if (!json)
          expect(read).toMatchObject({ ok: false, error: expect.stringContaining("not JSON") });
      }),
      { numRuns: 300 },
    );
  });

  it("any JSON in the result file is a claim or refused as malformed, never a crash", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (v) => {
        const read = await readText(JSON.stringify(v));
        if (!read.ok) expect(read.error).toMatch(/malformed|not JSON/);
      }),
      { numRuns: 300 },
    );
  });

  it("a result file over 256 KiB is refused with its size, whatever it holds", async () => {
    const huge = JSON.stringify({
      outcome: "progress",
      handoff: { done: "x".repeat(300_000), next: "" },
    });
    const read = await readText(huge);
    expect(read.ok).toBe(false);
    if (!read.ok) {
      expect(read.error).toContain("over the 262144-byte limit");
      expect(read.raw.length).toBeLessThanOrEqual(4096);
    }
  });

  it("a verbose claim is clamped into a result the tick API accepts", () => {
    fc.assert(
      fc.property(claim, (c) => {
        const result = toHarnessResult(reportWith(c), "T1");
        const wire = ResultRequest.safeParse({ leaseToken: "l".repeat(43), result });
        expect(wire.success, wire.error?.message).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("the API's schema judges any body without throwing", () => {
    fc.assert(
      fc.property(fc.anything(), (v) => {
        ResultRequest.safeParse(v);
        HarnessResult.safeParse(v);
      }),
      { numRuns: 2000 },
    );
  });
});
