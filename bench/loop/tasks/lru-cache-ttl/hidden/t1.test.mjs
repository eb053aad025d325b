import assert from "node:assert/strict";
import { test } from "node:test";
import { LruCache } from "../src/lru.mjs";

test("an entry lives exactly ttlMs from its last set", () => {
  let t = 1_000;
  const c = new LruCache({ max: 10, ttlMs: 50, now: () => t });
  c.set("k", "v");
  t = 1_049;
  assert.equal(c.has("k"), true);
  assert.equal(c.get("k"), "v");
  t = 1_050;
  assert.equal(c.has("k"), false);
  assert.equal(c.get("k"), undefined);
});

test("reading does not extend the ttl; setting again does", () => {
  let t = 0;
  const c = new LruCache({ max: 10, ttlMs: 100, now: () => t });
  c.set("a", 1);
  t = 90;
  c.get("a");
  t = 100;
  assert.equal(c.get("a"), undefined);
  c.set("b", 1);
  t = 190;
  c.set("b", 2);
  t = 250;
  assert.equal(c.get("b"), 2);
});

test("expired entries stop counting towards size once touched", () => {
  let t = 0;
  const c = new LruCache({ max: 10, ttlMs: 5, now: () => t });
  c.set("a", 1).set("b", 2);
  t = 5;
  c.has("a");
  c.get("b");
  assert.equal(c.size, 0);
});

test("without ttlMs nothing expires", () => {
  let t = 0;
  const c = new LruCache({ max: 1, now: () => t });
  c.set("a", 1);
  t = 1e12;
  assert.equal(c.get("a"), 1);
});
