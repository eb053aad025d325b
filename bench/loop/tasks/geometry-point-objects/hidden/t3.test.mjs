import assert from "node:assert/strict";
import { test } from "node:test";
import { bbox, contains } from "../src/bbox.mjs";
import { rotate, scale, translate } from "../src/transform.mjs";

test("bbox takes and returns { x, y }", () => {
  const box = bbox([
    { x: 3, y: -1 },
    { x: -2, y: 8 },
  ]);
  assert.deepEqual(box, { min: { x: -2, y: -1 }, max: { x: 3, y: 8 } });
  assert.equal(contains(box, { x: -2, y: 8 }), true);
  assert.equal(contains(box, { x: 0, y: 9 }), false);
  assert.throws(() => bbox([]), RangeError);
});

test("transforms take and return { x, y }", () => {
  assert.deepEqual(translate({ x: 1, y: 2 }, { x: -1, y: 10 }), { x: 0, y: 12 });
  assert.deepEqual(scale({ x: 2, y: 4 }, 0.5), { x: 1, y: 2 });
  assert.deepEqual(scale({ x: 2, y: 4 }, 3, { x: 2, y: 2 }), { x: 2, y: 8 });
  const r = rotate({ x: 2, y: 1 }, Math.PI, { x: 1, y: 1 });
  assert.ok(Math.abs(r.x - 0) < 1e-9 && Math.abs(r.y - 1) < 1e-9, JSON.stringify(r));
});
