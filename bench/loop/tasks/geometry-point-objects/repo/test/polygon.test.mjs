import assert from "node:assert/strict";
import { test } from "node:test";
import { area, centroid, perimeter } from "../src/polygon.mjs";

const square = [
  [0, 0],
  [2, 0],
  [2, 2],
  [0, 2],
];

test("a 2x2 square", () => {
  assert.equal(area(square), 4);
  assert.equal(perimeter(square), 8);
  assert.deepEqual(centroid(square), [1, 1]);
});
