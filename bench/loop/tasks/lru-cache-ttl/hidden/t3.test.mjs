import assert from "node:assert/strict";
import { test } from "node:test";
import { LruCache } from "../src/lru.mjs";

test("capacity evictions are reported with the evicted entry", () => {
  const seen = [];
  const c = new LruCache({ max: 2, onEvict: (...args) => seen.push(args) });
  c.set("a", 1).set("b", 2);
  c.get("a");
  c.set("c", 3);
  c.set("d", 4);
  assert.deepEqual(seen, [
    ["b", 2, "capacity"],
    ["a", 1, "capacity"],
  ]);
});

test("expiry is reported when an expired entry is found", () => {
  let t = 0;
  const seen = [];
  const c = new LruCache({ max: 5, ttlMs: 10, now: () => t, onEvict: (...a) => seen.push(a) });
  c.set("x", "gone");
  t = 11;
  assert.equal(c.get("x"), undefined);
  assert.deepEqual(seen, [["x", "gone", "expired"]]);
});

test("replacing a key and delete() are not evictions", () => {
  const seen = [];
  const c = new LruCache({ max: 2, onEvict: (...a) => seen.push(a) });
  c.set("a", 1).set("a", 2);
  c.delete("a");
  assert.deepEqual(seen, []);
});
