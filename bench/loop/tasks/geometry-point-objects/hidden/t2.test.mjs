import assert from "node:assert/strict";
import { test } from "node:test";
import { area, centroid, perimeter } from "../src/polygon.mjs";

const triangle = [
  { x: 0, y: 0 },
  { x: 4, y: 0 },
  { x: 4, y: 3 },
];

test("polygons are lists of { x, y }", () => {
  assert.equal(area(triangle), 6);
  assert.equal(area([...triangle].reverse()), 6);
  assert.equal(perimeter(triangle), 12);
  assert.deepEqual(centroid(triangle), { x: 8 / 3, y: 1 });
});
