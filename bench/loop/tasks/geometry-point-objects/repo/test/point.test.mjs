import assert from "node:assert/strict";
import { test } from "node:test";
import { add, cross, dist, sub } from "../src/point.mjs";

test("vector arithmetic", () => {
  assert.deepEqual(add([1, 2], [3, 4]), [4, 6]);
  assert.deepEqual(sub([1, 2], [3, 4]), [-2, -2]);
  assert.equal(cross([1, 0], [0, 1]), 1);
  assert.equal(dist([0, 0], [3, 4]), 5);
});
