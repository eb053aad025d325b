import assert from "node:assert/strict";
import { test } from "node:test";
import { diff, patch } from "../src/diff.mjs";

const byId = { key: (r) => r.id };

test("records match by key, and kept records carry their new contents", () => {
  const a = [
    { id: "a", n: 1 },
    { id: "b", n: 2 },
    { id: "c", n: 3 },
  ];
  const b = [
    { id: "b", n: 20 },
    { id: "d", n: 4 },
    { id: "c", n: 3 },
  ];
  assert.deepEqual(diff(a, b, byId), [
    { op: "remove", value: { id: "a", n: 1 } },
    { op: "keep", value: { id: "b", n: 20 } },
    { op: "add", value: { id: "d", n: 4 } },
    { op: "keep", value: { id: "c", n: 3 } },
  ]);
  assert.deepEqual(patch(a, diff(a, b, byId), byId), b);
});

test("without a key, distinct objects never match", () => {
  const ops = diff([{ id: 1 }], [{ id: 1 }]);
  assert.deepEqual(
    ops.map((o) => o.op),
    ["remove", "add"],
  );
});
