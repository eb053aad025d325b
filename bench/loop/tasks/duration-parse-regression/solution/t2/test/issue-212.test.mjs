import assert from "node:assert/strict";
import { test } from "node:test";
import { formatDuration, parseDuration } from "../src/duration.mjs";
import { ISSUE_212_CASES } from "./issue-212-cases.mjs";

// Issue #212: "ms" parsed as minutes.
for (const { input, ms } of ISSUE_212_CASES) {
  test(`parseDuration("${input}") is ${ms} ms`, () => {
    assert.equal(parseDuration(input), ms);
  });
}

test("formatDuration output parses back to the same duration", () => {
  for (const { ms } of ISSUE_212_CASES) assert.equal(parseDuration(formatDuration(ms)), ms);
});
