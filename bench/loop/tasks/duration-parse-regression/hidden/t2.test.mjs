import assert from "node:assert/strict";
import { test } from "node:test";
import { formatDuration, parseDuration } from "../src/duration.mjs";

test("milliseconds are not minutes (issue #212)", () => {
  assert.equal(parseDuration("1500ms"), 1_500);
  assert.equal(parseDuration("1m500ms"), 60_500);
  assert.equal(parseDuration("1d2h3m4s5ms"), 93_784_005);
  assert.equal(parseDuration("90m"), 5_400_000);
});

test("every formatted duration parses back", () => {
  for (const ms of [1, 999, 1_000, 61_001, 3_600_000, 93_784_005, 172_800_123]) {
    assert.equal(parseDuration(formatDuration(ms)), ms, formatDuration(ms));
  }
});
