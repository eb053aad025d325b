import assert from "node:assert/strict";
import { test } from "node:test";
import { TokenBucket } from "../src/token-bucket.mjs";

function clock(start = 0) {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

test("a full bucket serves up to its capacity, then refuses", () => {
  const c = clock();
  const b = new TokenBucket({ capacity: 3, refillPerSec: 1, now: c.now });
  assert.equal(b.tryTake(), true);
  assert.equal(b.tryTake(2), true);
  assert.equal(b.tryTake(), false);
});

test("tokens come back with time, never beyond capacity", () => {
  const c = clock();
  const b = new TokenBucket({ capacity: 2, refillPerSec: 2, now: c.now });
  assert.equal(b.tryTake(2), true);
  c.advance(500);
  assert.equal(b.tryTake(), true);
  assert.equal(b.tryTake(), false);
  c.advance(60_000);
  assert.equal(b.tryTake(2), true);
  assert.equal(b.tryTake(), false);
});

test("waitTime says how long until a take succeeds", () => {
  const c = clock();
  const b = new TokenBucket({ capacity: 4, refillPerSec: 2, now: c.now });
  assert.equal(b.waitTime(4), 0);
  assert.equal(b.tryTake(4), true);
  assert.equal(b.waitTime(), 500);
  c.advance(500);
  assert.equal(b.waitTime(), 0);
});

test("options and sizes that can never work are refused", () => {
  assert.throws(() => new TokenBucket({ capacity: 0, refillPerSec: 1 }), RangeError);
  assert.throws(() => new TokenBucket({ capacity: 1, refillPerSec: -1 }), RangeError);
  const b = new TokenBucket({ capacity: 2, refillPerSec: 1, now: () => 0 });
  assert.throws(() => b.tryTake(3), /exceeds capacity/);
  assert.throws(() => b.waitTime(3), /exceeds capacity/);
});
