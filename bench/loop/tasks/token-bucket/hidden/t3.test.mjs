import assert from "node:assert/strict";
import { test } from "node:test";
import { KeyedLimiter } from "../src/keyed-limiter.mjs";

test("keys do not share tokens", () => {
  let t = 0;
  const l = new KeyedLimiter({ capacity: 2, refillPerSec: 1, now: () => t });
  assert.equal(l.tryTake("a", 2), true);
  assert.equal(l.tryTake("a"), false);
  assert.equal(l.tryTake("b", 2), true);
  assert.equal(l.waitTime("a"), 1000);
  t = 1000;
  assert.equal(l.tryTake("a"), true);
});

test("prune forgets only buckets that are full again", () => {
  let t = 0;
  const l = new KeyedLimiter({ capacity: 3, refillPerSec: 1, now: () => t });
  l.tryTake("a", 3);
  l.tryTake("b", 1);
  l.tryTake("c", 1);
  assert.equal(l.size, 3);
  t = 1000;
  assert.equal(l.prune(), 2);
  assert.equal(l.size, 1);
  assert.equal(l.tryTake("b", 3), true);
});

test("bad options fail when the limiter is built", () => {
  assert.throws(() => new KeyedLimiter({ capacity: 0, refillPerSec: 1 }), RangeError);
});
