import assert from "node:assert/strict";
import { test } from "node:test";
import { parseDuration } from "../src/duration.mjs";

test("spaces between pairs are fine", () => {
  assert.equal(parseDuration("1h 30m"), 5_400_000);
  assert.equal(parseDuration("  2s 250ms "), 2_250);
});

test("anything left over is an error naming it", () => {
  assert.throws(() => parseDuration("1h30x"), /unexpected "30x"/);
  assert.throws(() => parseDuration("1h and 30m"), /unexpected "and 30m"/);
  assert.throws(() => parseDuration("5 minutes"), /not a duration/);
  assert.throws(() => parseDuration("h"), /not a duration/);
  assert.throws(() => parseDuration(""), /not a duration/);
  assert.throws(() => parseDuration("-5m"), /not a duration/);
});
