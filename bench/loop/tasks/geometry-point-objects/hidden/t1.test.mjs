import assert from "node:assert/strict";
import { test } from "node:test";
import { add, cross, dist, sub } from "../src/point.mjs";

test("point functions take and return { x, y }", () => {
  assert.deepEqual(add({ x: 1.5, y: -2 }, { x: 0.5, y: 7 }), { x: 2, y: 5 });
  assert.deepEqual(sub({ x: 0, y: 0 }, { x: 3, y: -4 }), { x: -3, y: 4 });
  assert.equal(cross({ x: 2, y: 0 }, { x: 0, y: 3 }), 6);
  assert.equal(cross({ x: 0, y: 3 }, { x: 2, y: 0 }), -6);
  assert.equal(dist({ x: 1, y: 1 }, { x: 4, y: 5 }), 5);
});

test("the public index still exports every function", async () => {
  const lib = await import("../src/index.mjs");
  for (const name of ["add", "sub", "cross", "dist", "area", "perimeter", "centroid"]) {
    assert.equal(typeof lib[name], "function", name);
  }
  assert.deepEqual(lib.add({ x: 1, y: 1 }, { x: 1, y: 1 }), { x: 2, y: 2 });
});
