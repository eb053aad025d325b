import assert from "node:assert/strict";
import { test } from "node:test";
import { TokenBucket } from "../src/token-bucket.mjs";

test("waitTime is 0 when tokens are there and exact when they are not", () => {
  let t = 1_000;
  const b = new TokenBucket({ capacity: 10, refillPerSec: 4, now: () => t });
  assert.equal(b.waitTime(10), 0);
  assert.equal(b.tryTake(10), true);
  assert.equal(b.waitTime(1), 250);
  assert.equal(b.waitTime(3), 750);
  t += 250;
  assert.equal(b.waitTime(1), 0);
  assert.equal(b.waitTime(2), 250);
  assert.equal(b.tryTake(1), true);
});

test("waitTime does not take tokens", () => {
  const b = new TokenBucket({ capacity: 2, refillPerSec: 1, now: () => 0 });
  b.waitTime(2);
  b.waitTime(2);
  assert.equal(b.tryTake(2), true);
});

test("a bucket that never refills waits forever", () => {
  const b = new TokenBucket({ capacity: 1, refillPerSec: 0, now: () => 0 });
  b.tryTake();
  assert.equal(b.waitTime(), Number.POSITIVE_INFINITY);
});
