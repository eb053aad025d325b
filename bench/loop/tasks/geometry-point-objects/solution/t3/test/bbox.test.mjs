import assert from "node:assert/strict";
import { test } from "node:test";
import { bbox, contains } from "../src/bbox.mjs";

test("bbox and contains", () => {
  const box = bbox([
    { x: 1, y: 5 },
    { x: -2, y: 3 },
    { x: 4, y: -1 },
  ]);
  assert.deepEqual(box, { min: { x: -2, y: -1 }, max: { x: 4, y: 5 } });
  assert.equal(contains(box, { x: 4, y: 5 }), true);
  assert.equal(contains(box, { x: 4.5, y: 0 }), false);
});
