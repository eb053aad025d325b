import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  AGENT_CLAIM_PREFIX,
  agentClaimSummary,
  commitSummary,
  distinctEvidence,
  EVIDENCE_SUMMARY_MAX,
  evidenceView,
  readTestCounts,
  testRunEvidence,
  testRunLine,
} from "../src/index.ts";

/** A fixture's captured output: everything after its header's `-----` line. */
function output(name: string): string {
  const text = readFileSync(resolve(import.meta.dirname, "fixtures/test-output", name), "utf8");
  return text.slice(text.indexOf("\n-----\n") + 7);
}

describe("readTestCounts, from each runner's real output", () => {
  it.each([
    ["node-test-pass.txt", { runner: "node --test", passed: 4, failed: 0, skipped: 0 }],
    ["node-test-fail.txt", { runner: "node --test", passed: 1, failed: 1, skipped: 1 }],
    ["vitest-pass.txt", { runner: "vitest", passed: 3, failed: 0, skipped: 0 }],
    ["vitest-fail.txt", { runner: "vitest", passed: 1, failed: 1, skipped: 1 }],
    ["jest-pass.txt", { runner: "jest", passed: 2, failed: 0, skipped: 0 }],
    ["pytest-pass.txt", { runner: "pytest", passed: 2, failed: 0, skipped: 0 }],
    ["pytest-fail.txt", { runner: "pytest", passed: 2, failed: 1, skipped: 1 }],
    ["go-test-fail.txt", { runner: "go test", passed: 1, failed: 1, skipped: 1 }],
  ])("%s", (name, counts) => {
    expect(readTestCounts(output(name))).toEqual(counts);
  });

  it("reads Jest's failure summary in the shape its reporter prints it", () => {
    const text = "Test Suites: 1 failed, 1 total\nTests:       1 failed, 2 passed, 3 total\n";
    expect(readTestCounts(text)).toEqual({ runner: "jest", passed: 2, failed: 1, skipped: 0 });
  });

  it("reads counts through colour codes", () => {
    const coloured =
      "\u001b[2m      Tests \u001b[22m \u001b[1m\u001b[32m3 passed\u001b[39m\u001b[22m\u001b[90m (3)\u001b[39m";
    expect(readTestCounts(coloured)).toEqual({
      runner: "vitest",
      passed: 3,
      failed: 0,
      skipped: 0,
    });
  });

  it("knows no runner in output that has no summary, or only half of one", () => {
    expect(readTestCounts("lint clean\nall good")).toBeNull();
    expect(readTestCounts("TAP version 13\nok 1 - adds\n# pass 1\n")).toBeNull();
    expect(readTestCounts("--- PASS: TestX (0.00s)\n")).toBeNull();
    expect(readTestCounts("")).toBeNull();
  });
});

describe("testRunLine", () => {
  it("says the runner's counts and the exit", () => {
    const run = {
      command: "npm test",
      exitCode: 0,
      passed: true,
      output: output("node-test-pass.txt"),
    };
    expect(testRunLine(run)).toBe("node --test: 4 passed, 0 failed, exit 0");
    const failed = {
      command: "pytest",
      exitCode: 1,
      passed: false,
      output: output("pytest-fail.txt"),
    };
    expect(testRunLine(failed)).toBe("pytest: 2 passed, 1 failed, 1 skipped, exit 1");
  });

  it("falls back to the command and its exit when no runner's summary is in the output", () => {
    expect(
      testRunLine({ command: "make check", exitCode: 2, passed: false, output: "exit 2\nboom" }),
    ).toBe("`make check` failed, exit 2");
    expect(
      testRunLine({
        command: "npm test",
        exitCode: null,
        passed: false,
        output: "validation timed out after 600000 ms\n...",
      }),
    ).toBe("`npm test` failed, no exit code, timed out after 600000 ms");
  });
});

describe("testRunEvidence", () => {
  it("keeps the line first and the output's end after it, within the evidence bound", () => {
    const tap = output("node-test-pass.txt");
    const summary = testRunEvidence({
      command: "npm test",
      exitCode: 0,
      passed: true,
      output: `exit 0\n${tap}`,
    });
    expect(summary.length).toBeLessThanOrEqual(EVIDENCE_SUMMARY_MAX);
    const view = evidenceView({ summary });
    expect(view.line).toBe("node --test: 4 passed, 0 failed, exit 0");
    expect(view.claimed).toBe(false);
    // The tail starts on a line of the output, not in the middle of one, and ends with its last.
    const lines = tap.trim().split("\n");
    const detail = view.detail ?? "";
    expect(lines).toContain(detail.split("\n")[0]);
    expect(detail.endsWith(lines.at(-1) ?? "?")).toBe(true);
    expect(detail).not.toMatch(/^exit 0/);
  });

  it("is the line alone when there is no output", () => {
    expect(
      testRunEvidence({ command: "true", exitCode: 0, passed: true, output: "exit 0\n" }),
    ).toBe("`true` passed, exit 0");
  });
});

describe("evidenceView", () => {
  it("marks the agent's words as its claim", () => {
    const view = evidenceView({ summary: agentClaimSummary("node --test: 3 tests pass") });
    expect(view).toEqual({ line: "node --test: 3 tests pass", detail: null, claimed: true });
  });

  it("reads an unmarked summary as a checked fact, its later lines as detail", () => {
    expect(evidenceView({ summary: "required checks green on #2\nraw" })).toEqual({
      line: "required checks green on #2",
      detail: "raw",
      claimed: false,
    });
  });

  it("does not take a prefix the agent wrote mid-text for the mark", () => {
    expect(evidenceView({ summary: `ok ${AGENT_CLAIM_PREFIX}x` }).claimed).toBe(false);
  });
});

describe("distinctEvidence", () => {
  it("lists one fact once, keeping items that differ in kind, sha, line or whose word it is", () => {
    const items = [
      {
        kind: "test" as const,
        sha: null,
        summary: "node --test: 4 passed, 0 failed, exit 0\nTAP a",
      },
      {
        kind: "test" as const,
        sha: null,
        summary: "node --test: 4 passed, 0 failed, exit 0\nTAP b",
      },
      {
        kind: "test" as const,
        sha: null,
        summary: agentClaimSummary("node --test: 4 passed, 0 failed, exit 0"),
      },
      { kind: "commit" as const, sha: "a".repeat(40), summary: "Fix it" },
      { kind: "commit" as const, sha: "b".repeat(40), summary: "Fix it" },
    ];
    expect(distinctEvidence(items)).toEqual([items[0], items[2], items[3], items[4]]);
  });
});

describe("commitSummary", () => {
  const sha = "c".repeat(40);

  it("is the subject and the diffstat", () => {
    expect(
      commitSummary({
        sha,
        message: "Cache parsed ASTs\n\nlong body",
        diffstat: { files: 2, insertions: 10, deletions: 2 },
      }),
    ).toBe("Cache parsed ASTs · 2 files, +10 −2");
    expect(
      commitSummary({ sha, message: "One", diffstat: { files: 1, insertions: 1, deletions: 0 } }),
    ).toBe("One · 1 file, +1 −0");
  });

  it("is the subject alone without a diffstat, and never passes for the App's push record", () => {
    expect(commitSummary({ sha, message: "Fix it" })).toBe("Fix it");
    expect(commitSummary({ sha, message: "" })).toBe("commit ccccccc");
    expect(commitSummary({ sha, message: "pushed main at abc" })).toBe(
      "reported: pushed main at abc",
    );
  });
});
