import assert from "node:assert/strict";
import { test } from "node:test";
import { add, cross, dist, sub } from "../src/point.mjs";
import { area } from "../src/polygon.mjs";

test("vector arithmetic", () => {
  assert.deepEqual(add({ x: 1, y: 2 }, { x: 3, y: 4 }), { x: 4, y: 6 });
  assert.deepEqual(sub({ x: 1, y: 2 }, { x: 3, y: 4 }), { x: -2, y: -2 });
  assert.equal(cross({ x: 1, y: 0 }, { x: 0, y: 1 }), 1);
  assert.equal(dist({ x: 0, y: 0 }, { x: 3, y: 4 }), 5);
});

test("old [x, y] points fail loudly", () => {
  assert.throws(() => add([1, 2], { x: 0, y: 0 }), /no longer \[x, y\] arrays/);
  assert.throws(() => area([[0, 0], { x: 1, y: 0 }, { x: 0, y: 1 }]), /vertex 0/);
});
