import assert from "node:assert/strict";
import { test } from "node:test";
import { formatDuration, parseDuration } from "../src/duration.mjs";

test("parses hours, minutes and seconds", () => {
  assert.equal(parseDuration("1h30m"), 5_400_000);
  assert.equal(parseDuration("2d"), 172_800_000);
  assert.equal(parseDuration("45s"), 45_000);
  assert.equal(parseDuration(" 1h 30m "), 5_400_000);
});

test("formats largest units first", () => {
  assert.equal(formatDuration(5_400_000), "1h30m");
  assert.equal(formatDuration(0), "0ms");
});

test("refuses text with no duration", () => {
  assert.throws(() => parseDuration("soon"), /not a duration/);
});

test("refuses leftovers instead of skipping them", () => {
  assert.throws(() => parseDuration("1h30x"), /unexpected "30x"/);
  assert.throws(() => parseDuration(""), /not a duration/);
});
