import assert from "node:assert/strict";
import { test } from "node:test";
import { diff } from "../src/diff.mjs";

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
