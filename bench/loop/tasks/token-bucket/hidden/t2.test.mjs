import assert from "node:assert/strict";
import { test } from "node:test";
import { TokenBucket } from "../src/token-bucket.mjs";

test("bad options are refused when the bucket is built", () => {
  for (const capacity of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.throws(() => new TokenBucket({ capacity, refillPerSec: 1 }), RangeError);
  }
  assert.throws(() => new TokenBucket({ capacity: 5, refillPerSec: -0.5 }), RangeError);
  assert.doesNotThrow(() => new TokenBucket({ capacity: 5, refillPerSec: 0 }));
});

test("a take larger than the bucket is an error, not a silent false", () => {
  const b = new TokenBucket({ capacity: 5, refillPerSec: 1, now: () => 0 });
  assert.throws(
    () => b.tryTake(6),
    (e) => e instanceof RangeError && /capacity/.test(e.message),
  );
  assert.throws(() => b.waitTime(6), RangeError);
  assert.throws(() => b.tryTake(0), RangeError);
  assert.equal(b.tryTake(5), true);
});
