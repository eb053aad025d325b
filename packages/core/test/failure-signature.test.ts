import { describe, expect, it } from "vitest";
import {
  failureSignature,
  firstErrorLine,
  firstFailingTest,
  normalizeErrorLine,
} from "../src/failure-signature.ts";

// Outputs as the reporters print them (trimmed to the lines that matter, order kept).
const TAP = `TAP version 13
# Subtest: sum
ok 1 - adds small numbers
not ok 2 - adds negative numbers
  ---
  duration_ms: 1.2
  ...
not ok 3 - overflows
1..3`;

const TAP_TODO = `TAP version 13
not ok 1 - parses dates # TODO not written yet
not ok 2 - rejects empty input
1..2`;

const JEST = `FAIL src/sum.test.js
  sum
    ✓ adds 1 + 2 to equal 3 (3 ms)
    ✕ adds negatives (5 ms)

  ● sum › adds negatives

    expect(received).toBe(expected) // Object.is equality

Tests:       1 failed, 1 passed, 2 total`;

const VITEST = ` ❯ src/a.test.ts (2 tests | 1 failed) 6ms
   ✓ parser > keeps order 1ms
   × parser > drops blanks 4ms
     → expected [ 'a', '' ] to deeply equal [ 'a' ]

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/a.test.ts > parser > drops blanks
AssertionError: expected [ 'a', '' ] to deeply equal [ 'a' ]`;

const PYTEST = `============================= test session starts ==============================
collected 3 items

tests/test_cart.py .F.                                                   [100%]

=================================== FAILURES ===================================
___________________________ TestCart.test_total ________________________________
E       assert 9 == 10
tests/test_cart.py:14: AssertionError
=========================== short test summary info ============================
FAILED tests/test_cart.py::TestCart::test_total - assert 9 == 10
========================= 1 failed, 2 passed in 0.05s ==========================`;

const GO = `=== RUN   TestParse
=== RUN   TestParse/empty
    parse_test.go:21: got "x", want ""
--- FAIL: TestParse (0.00s)
    --- FAIL: TestParse/empty (0.00s)
FAIL
FAIL	example.com/widgets/parse	0.012s
FAIL`;

const ACTIONS_LOG = `2026-12-03T16:01:02.1234567Z ##[group]Run npm run lint
2026-12-03T16:01:02.1234567Z > lint
2026-12-03T16:01:09.7654321Z /tmp/runner-7f3a9c/work/src/a.ts:12:7 error: 'x' is assigned a value but never used
2026-12-03T16:01:09.8000000Z ##[error]Process completed with exit code 1.`;

describe("firstFailingTest", () => {
  it.each([
    ["TAP: the first not ok", TAP, "adds negative numbers"],
    ["TAP: a TODO directive is not a failure", TAP_TODO, "rejects empty input"],
    [
      "Jest: the file, then the ✕ test, without its timing",
      JEST,
      "src/sum.test.js > adds negatives",
    ],
    ["Vitest: the × test under its file", VITEST, "src/a.test.ts > parser > drops blanks"],
    ["pytest: the FAILED node id", PYTEST, "tests/test_cart.py::TestCart::test_total"],
    ["go test: the first --- FAIL", GO, "TestParse"],
  ])("%s", (_label, output, expected) => {
    expect(firstFailingTest(output)).toBe(expected);
  });

  it("Vitest names a failure the same in its live list and in its summary", () => {
    const summaryOnly = VITEST.split("\n").slice(6).join("\n");
    expect(firstFailingTest(summaryOnly)).toBe(firstFailingTest(VITEST));
  });

  it.each([
    ["a lint error", ACTIONS_LOG],
    ["passing TAP", "TAP version 13\nok 1 - fine\n1..1"],
    ["prose that mentions failure", "The build failed: see above"],
    ["nothing", ""],
  ])("names no test in %s", (_label, output) => {
    expect(firstFailingTest(output)).toBeNull();
  });
});

describe("normalizeErrorLine", () => {
  it.each([
    [
      "an Actions timestamp, a temp dir and a line:col",
      "2026-12-03T16:01:09.7654321Z /tmp/runner-7f3a9c/work/src/a.ts:12:7 error: unused",
      "<tmp> error: unused",
    ],
    [
      "a clock time and a duration",
      "[12:04:55] build failed after 3.2s",
      "[<time>] build failed after <dur>",
    ],
    ["a short SHA and a pointer", "panic at 0x7ffde3 in deadbeef42", "panic at <hex> in <hex>"],
    ["a uuid", "request 123e4567-e89b-12d3-a456-426614174000 failed", "request <hex> failed"],
    [
      "a Windows temp path",
      "C:\\Users\\runneradmin\\AppData\\Local\\Temp\\abc\\x.js failed",
      "<tmp> failed",
    ],
  ])("strips %s", (_label, line, expected) => {
    expect(normalizeErrorLine(line)).toBe(expected);
  });

  it("keeps what names the failure: words, plain numbers, file names", () => {
    expect(normalizeErrorLine("src/a.ts: expected 1234567 to be 42")).toBe(
      "src/a.ts: expected 1234567 to be 42",
    );
  });
});

describe("firstErrorLine", () => {
  it("takes the first line reading as an error", () => {
    expect(firstErrorLine(ACTIONS_LOG)).toBe("<tmp> error: 'x' is assigned a value but never used");
  });

  it("falls back to the first non-empty line", () => {
    expect(firstErrorLine("\n\nsomething odd happened\nand more")).toBe("something odd happened");
  });
});

describe("failureSignature", () => {
  const ci = (output: string, appId: number | null = 15368) =>
    failureSignature({ name: "ci", appId, output });

  it("names the check, the app and the first failing test", () => {
    expect(ci(PYTEST)).toMatchObject({
      key: "ci|15368|test:tests/test_cart.py::TestCart::test_total",
      test: "tests/test_cart.py::TestCart::test_total",
    });
  });

  it("keeps an excerpt from the line that names the failure", () => {
    expect(ci(GO).excerpt.split("\n")[0]).toBe("--- FAIL: TestParse (0.00s)");
    expect(ci(ACTIONS_LOG).excerpt.split("\n")[0]).toContain("error: 'x' is assigned");
    expect(ci("x\n".repeat(5000)).excerpt.length).toBeLessThanOrEqual(800);
  });

  it("is the same for two runs that differ only in times, ids, temp paths and positions", () => {
    const again = ACTIONS_LOG.replaceAll("16:01", "17:45")
      .replace("runner-7f3a9c", "runner-0b81de")
      .replace(":12:7", ":13:9");
    expect(ci(again).key).toBe(ci(ACTIONS_LOG).key);
    expect(ci(ACTIONS_LOG).key).toMatch(/^ci\|15368\|line:[0-9a-f]{16}$/);
  });

  it("differs for another error, another test, another app and a commit status", () => {
    const base = ci(ACTIONS_LOG).key;
    expect(ci(ACTIONS_LOG.replace("'x'", "'y'")).key).not.toBe(base);
    expect(ci(TAP).key).not.toBe(ci(TAP_TODO).key);
    expect(ci(ACTIONS_LOG, 99).key).not.toBe(base);
    expect(ci(ACTIONS_LOG, null).key).toMatch(/^ci\|status\|line:/);
  });
});
