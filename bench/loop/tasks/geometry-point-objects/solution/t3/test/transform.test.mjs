import assert from "node:assert/strict";
import { test } from "node:test";
import { rotate, scale, translate } from "../src/transform.mjs";

const close = (a, b) => Math.abs(a.x - b.x) < 1e-9 && Math.abs(a.y - b.y) < 1e-9;

test("translate, scale, rotate", () => {
  assert.deepEqual(translate({ x: 1, y: 1 }, { x: 2, y: 3 }), { x: 3, y: 4 });
  assert.deepEqual(scale({ x: 3, y: 3 }, 2, { x: 1, y: 1 }), { x: 5, y: 5 });
  assert.ok(close(rotate({ x: 1, y: 0 }, Math.PI / 2), { x: 0, y: 1 }));
});
