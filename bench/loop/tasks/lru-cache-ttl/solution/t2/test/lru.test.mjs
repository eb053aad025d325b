import assert from "node:assert/strict";
import { test } from "node:test";
import { LruCache } from "../src/lru.mjs";

test("evicts the least recently used entry", () => {
  const c = new LruCache({ max: 2 });
  c.set("a", 1).set("b", 2);
  assert.equal(c.get("a"), 1);
  c.set("c", 3);
  assert.equal(c.has("b"), false);
  assert.equal(c.get("a"), 1);
  assert.equal(c.get("c"), 3);
  assert.equal(c.size, 2);
});

test("entries expire ttlMs after they were set", () => {
  let t = 0;
  const c = new LruCache({ max: 5, ttlMs: 100, now: () => t });
  c.set("a", 1);
  t = 99;
  assert.equal(c.get("a"), 1);
  t = 100;
  assert.equal(c.get("a"), undefined);
  assert.equal(c.size, 0);
});

test("peek does not refresh recency", () => {
  const c = new LruCache({ max: 2 });
  c.set("a", 1).set("b", 2);
  assert.equal(c.peek("a"), 1);
  c.set("c", 3);
  assert.equal(c.has("a"), false);
});
