import assert from "node:assert/strict";
import { test } from "node:test";
import { diff, patch } from "../src/diff.mjs";

const cases = [
  [[], []],
  [[], ["a"]],
  [["a"], []],
  [
    ["a", "b", "c", "a", "b", "b", "a"],
    ["c", "b", "a", "b", "a", "c"],
  ],
  [
    [1, 2, 3, 4, 5],
    [5, 4, 3, 2, 1],
  ],
  [
    ["x", "y"],
    ["x", "y", "z"],
  ],
];

test("patch(a, diff(a, b)) is b", () => {
  for (const [a, b] of cases) assert.deepEqual(patch(a, diff(a, b)), b);
});

test("patch leaves its input alone", () => {
  const a = [1, 2, 3];
  patch(a, diff(a, [3, 2]));
  assert.deepEqual(a, [1, 2, 3]);
});

test("a patch made for another list is refused with the index", () => {
  const ops = diff(["a", "b", "c"], ["a", "c"]);
  assert.throws(() => patch(["a", "x", "c"], ops), /does not apply at index 1/);
  assert.throws(() => patch(["a", "b", "c", "d"], ops), /does not apply/);
  assert.throws(() => patch(["a"], ops), /does not apply/);
});
