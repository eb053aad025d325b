import assert from "node:assert/strict";
import { test } from "node:test";
import { area, centroid, perimeter } from "../src/polygon.mjs";

const square = [
  { x: 0, y: 0 },
  { x: 2, y: 0 },
  { x: 2, y: 2 },
  { x: 0, y: 2 },
];

test("a 2x2 square", () => {
  assert.equal(area(square), 4);
  assert.equal(perimeter(square), 8);
  assert.deepEqual(centroid(square), { x: 1, y: 1 });
});
