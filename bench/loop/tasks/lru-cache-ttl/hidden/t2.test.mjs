import assert from "node:assert/strict";
import { test } from "node:test";
import { LruCache } from "../src/lru.mjs";

test("peek returns the value without making it recent", () => {
  const c = new LruCache({ max: 2 });
  c.set("old", 1).set("new", 2);
  assert.equal(c.peek("old"), 1);
  c.set("newest", 3);
  assert.equal(c.peek("old"), undefined);
  assert.equal(c.peek("new"), 2);
  assert.equal(c.peek("missing"), undefined);
});

test("peek respects expiry", () => {
  let t = 0;
  const c = new LruCache({ max: 2, ttlMs: 10, now: () => t });
  c.set("a", 1);
  t = 10;
  assert.equal(c.peek("a"), undefined);
});
