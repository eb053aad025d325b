import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";

test("the reported inputs are captured with their correct values", async () => {
  const { ISSUE_212_CASES } = await import("../test/issue-212-cases.mjs");
  const byInput = new Map(ISSUE_212_CASES.map((c) => [c.input, c.ms]));
  assert.equal(byInput.get("1500ms"), 1_500);
  assert.equal(byInput.get("1m500ms"), 60_500);
});

test("a regression test runs those cases against parseDuration", () => {
  assert.ok(existsSync("test/issue-212.test.mjs"), "test/issue-212.test.mjs is missing");
  const source = readFileSync("test/issue-212.test.mjs", "utf8");
  assert.match(source, /issue-212-cases\.mjs/);
  assert.match(source, /parseDuration/);
});
