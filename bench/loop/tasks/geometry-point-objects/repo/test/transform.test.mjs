import assert from "node:assert/strict";
import { test } from "node:test";
import { rotate, scale, translate } from "../src/transform.mjs";

const close = (a, b) => a.every((v, i) => Math.abs(v - b[i]) < 1e-9);

test("translate, scale, rotate", () => {
  assert.deepEqual(translate([1, 1], [2, 3]), [3, 4]);
  assert.deepEqual(scale([3, 3], 2, [1, 1]), [5, 5]);
  assert.ok(close(rotate([1, 0], Math.PI / 2), [0, 1]));
});
