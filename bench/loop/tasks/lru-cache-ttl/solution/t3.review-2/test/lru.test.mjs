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

test("onEvict hears of capacity evictions and expiries", () => {
  let t = 0;
  const seen = [];
  const c = new LruCache({
    max: 1,
    ttlMs: 10,
    now: () => t,
    onEvict: (k, v, why) => seen.push([k, v, why]),
  });
  c.set("a", 1).set("b", 2);
  t = 10;
  c.get("b");
  assert.deepEqual(seen, [
    ["a", 1, "capacity"],
    ["b", 2, "expired"],
  ]);
});

test("bad options are refused up front, naming the option", () => {
  assert.throws(() => new LruCache({ max: 0 }), /max must be a positive integer/);
  assert.throws(() => new LruCache({ max: 1.5 }), RangeError);
  assert.throws(() => new LruCache({ max: 1, ttlMs: -1 }), /ttlMs must be a positive number/);
  assert.throws(() => new LruCache({ max: 1, onEvict: "log" }), TypeError);
});

test("a throwing onEvict cannot break set or get; its error goes to onError", () => {
  const errors = [];
  const c = new LruCache({
    max: 1,
    onEvict: () => {
      throw new Error("listener bug");
    },
    onError: (e) => errors.push(e.message),
  });
  c.set("a", 1);
  c.set("b", 2);
  assert.equal(c.get("b"), 2);
  assert.equal(c.size, 1);
  assert.deepEqual(errors, ["listener bug"]);
});
