import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// CI prints only this script's output when a run goes red, so it must name what failed.
function summarise(report: unknown, ...extra: string[]): { out: string; code: number } {
  const dir = mkdtempSync(join(tmpdir(), "ci-summary-"));
  const path = join(dir, "vitest.json");
  writeFileSync(path, JSON.stringify(report));
  try {
    const out = execFileSync("node", [".ci/summarise.mjs", path, "0", ...extra], {
      encoding: "utf8",
    });
    return { out, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; status: number };
    return { out: e.stdout, code: e.status };
  }
}

describe("CI's summary line", () => {
  it("names each failed test and each file that failed to load, with the first line of its message", () => {
    const { out, code } = summarise({
      numPassedTests: 3,
      numFailedTests: 1,
      testResults: [
        {
          name: "/repo/test/e2e/one.test.ts",
          status: "failed",
          assertionResults: [
            { status: "passed", fullName: "fine" },
            {
              status: "failed",
              fullName: "tick waits > for CI",
              failureMessages: ["\nAssertionError: expected 2 to be 3\n    at x.ts:1"],
            },
          ],
        },
        {
          name: "/repo/test/e2e/two.test.ts",
          status: "failed",
          message: "Error: Hook timed out\nstack",
          assertionResults: [],
        },
        {
          name: "/repo/test/e2e/three.test.ts",
          status: "passed",
          assertionResults: [{ status: "passed", fullName: "ok" }],
        },
      ],
    });
    expect(code).toBe(1);
    expect(out).toContain(
      "FAILED /repo/test/e2e/one.test.ts > tick waits > for CI: AssertionError: expected 2 to be 3",
    );
    expect(out).toContain("FAILED /repo/test/e2e/two.test.ts: Error: Hook timed out");
    expect(out).not.toContain("three.test.ts");
    expect(out).not.toContain("fine");
    expect(out.trim().split("\n").at(-1)).toBe("3 passed, 2 failed");
  });

  it("prints no FAILED line for a green run and counts the demos as checks", () => {
    const { out, code } = summarise(
      {
        numPassedTests: 2,
        numFailedTests: 0,
        testResults: [{ name: "/a.test.ts", status: "passed", assertionResults: [] }],
      },
      "demo=0",
      "plan-demo=0",
    );
    expect(code).toBe(0);
    expect(out).not.toContain("FAILED");
    expect(out.trim()).toBe("4 passed, 0 failed");
  });
});
