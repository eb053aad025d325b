import assert from "node:assert/strict";
import { test } from "node:test";
import { diff, hunks, patch } from "../src/diff.mjs";

test("identical lists are all keeps", () => {
  assert.deepEqual(diff([1, 2], [1, 2]), [
    { op: "keep", value: 1 },
    { op: "keep", value: 2 },
  ]);
});

test("a change is a remove then an add", () => {
  assert.deepEqual(diff(["a", "b", "c"], ["a", "x", "c"]), [
    { op: "keep", value: "a" },
    { op: "remove", value: "b" },
    { op: "add", value: "x" },
    { op: "keep", value: "c" },
  ]);
});

test("patch turns a into b", () => {
  const a = ["a", "b", "c", "d"];
  const b = ["b", "c", "e", "d", "f"];
  assert.deepEqual(patch(a, diff(a, b)), b);
  assert.throws(() => patch(["z"], diff(a, b)), /does not apply/);
});

test("hunks keep one item of context and drop the rest", () => {
  const a = [1, 2, 3, 4, 5, 6, 7, 8];
  const b = [1, 2, 9, 4, 5, 6, 7, 8];
  assert.deepEqual(hunks(diff(a, b)), [
    {
      aStart: 1,
      bStart: 1,
      ops: [
        { op: "keep", value: 2 },
        { op: "remove", value: 3 },
        { op: "add", value: 9 },
        { op: "keep", value: 4 },
      ],
    },
  ]);
});
