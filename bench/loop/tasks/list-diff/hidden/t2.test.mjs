import assert from "node:assert/strict";
import { test } from "node:test";
import { diff, hunks } from "../src/diff.mjs";

const range = (n) => Array.from({ length: n }, (_, i) => i);

test("two distant changes make two hunks with context", () => {
  const a = range(20);
  const b = a.map((x) => (x === 3 ? "three" : x === 15 ? "fifteen" : x));
  const hs = hunks(diff(a, b), 2);
  assert.equal(hs.length, 2);
  assert.deepEqual(
    hs.map((h) => [h.aStart, h.bStart, h.ops.length]),
    [
      [1, 1, 6],
      [13, 13, 6],
    ],
  );
  assert.deepEqual(hs[0].ops[0], { op: "keep", value: 1 });
  assert.deepEqual(hs[1].ops.at(-1), { op: "keep", value: 17 });
});

test("changes closer than twice the context share a hunk", () => {
  const a = range(10);
  const b = a.filter((x) => x !== 3 && x !== 5);
  const hs = hunks(diff(a, b), 1);
  assert.equal(hs.length, 1);
  assert.deepEqual(hs[0].ops, [
    { op: "keep", value: 2 },
    { op: "remove", value: 3 },
    { op: "keep", value: 4 },
    { op: "remove", value: 5 },
    { op: "keep", value: 6 },
  ]);
});

test("insertions shift bStart; no changes means no hunks", () => {
  const a = range(10);
  const b = ["new", ...a.slice(0, 8), "late", ...a.slice(8)];
  const hs = hunks(diff(a, b), 1);
  assert.deepEqual(
    hs.map((h) => [h.aStart, h.bStart]),
    [
      [0, 0],
      [7, 8],
    ],
  );
  assert.deepEqual(hunks(diff(a, a)), []);
});
