import assert from "node:assert/strict";
import { test } from "node:test";
import { bbox, contains } from "../src/bbox.mjs";
import { add, dist } from "../src/point.mjs";
import { area, perimeter } from "../src/polygon.mjs";
import { rotate, translate } from "../src/transform.mjs";

const isPointError = (e) => e instanceof TypeError && /\{x, y\}/.test(e.message);

test("every module refuses [x, y] arrays with a TypeError that says what to pass", () => {
  assert.throws(() => add([1, 2], { x: 1, y: 1 }), isPointError);
  assert.throws(() => dist({ x: 1, y: 1 }, [0, 0]), isPointError);
  assert.throws(
    () =>
      area([
        [0, 0],
        [1, 0],
        [0, 1],
      ]),
    isPointError,
  );
  assert.throws(() => perimeter([{ x: 0, y: 0 }, [1, 0]]), isPointError);
  assert.throws(() => bbox([[0, 0]]), isPointError);
  assert.throws(() => contains({ min: { x: 0, y: 0 }, max: { x: 1, y: 1 } }, [0, 0]), isPointError);
  assert.throws(() => translate([1, 1], { x: 1, y: 1 }), isPointError);
  assert.throws(() => rotate({ x: 1, y: 1 }, 1, [0, 0]), isPointError);
});

test("non-finite coordinates are refused too", () => {
  assert.throws(() => add({ x: Number.NaN, y: 0 }, { x: 1, y: 1 }), isPointError);
  assert.throws(() => add({ x: "1", y: 0 }, { x: 1, y: 1 }), isPointError);
});
