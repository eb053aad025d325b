import assert from "node:assert/strict";
import { test } from "node:test";
import { KeyedLimiter } from "../src/keyed-limiter.mjs";

test("each key has its own bucket", () => {
  const l = new KeyedLimiter({ capacity: 1, refillPerSec: 1, now: () => 0 });
  assert.equal(l.tryTake("ann"), true);
  assert.equal(l.tryTake("ann"), false);
  assert.equal(l.tryTake("bob"), true);
  assert.equal(l.size, 2);
});

test("prune drops buckets that have refilled", () => {
  let t = 0;
  const l = new KeyedLimiter({ capacity: 2, refillPerSec: 1, now: () => t });
  l.tryTake("ann", 2);
  l.tryTake("bob", 1);
  t = 1000;
  assert.equal(l.prune(), 1);
  assert.equal(l.size, 1);
});
