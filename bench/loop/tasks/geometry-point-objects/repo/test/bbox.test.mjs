import assert from "node:assert/strict";
import { test } from "node:test";
import { bbox, contains } from "../src/bbox.mjs";

test("bbox and contains", () => {
  const box = bbox([
    [1, 5],
    [-2, 3],
    [4, -1],
  ]);
  assert.deepEqual(box, { min: [-2, -1], max: [4, 5] });
  assert.equal(contains(box, [4, 5]), true);
  assert.equal(contains(box, [4.5, 0]), false);
});
