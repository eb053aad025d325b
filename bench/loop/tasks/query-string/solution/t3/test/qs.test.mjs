import assert from "node:assert/strict";
import { test } from "node:test";
import { parse, stringify } from "../src/qs.mjs";

test("parse decodes keys and values", () => {
  assert.deepEqual(parse("?q=caf%C3%A9&page=2&flag"), { q: "café", page: "2", flag: "" });
});

test("stringify encodes and skips undefined", () => {
  assert.equal(stringify({ q: "a&b", n: 3, gone: undefined }), "q=a%26b&n=3");
});

test("plus is a space and repeated keys become arrays", () => {
  assert.deepEqual(parse("tag=a&tag=b+c"), { tag: ["a", "b c"] });
  assert.equal(stringify({ tag: ["a", "b c"] }), "tag=a&tag=b%20c");
});

test("bracketed keys nest", () => {
  const q = "user%5Bname%5D=Ann&user%5Btags%5D=x&user%5Btags%5D=y";
  assert.deepEqual(parse(q), { user: { name: "Ann", tags: ["x", "y"] } });
  assert.equal(stringify({ user: { name: "Ann", tags: ["x", "y"] } }), q);
});

test("keys that would reach Object.prototype are dropped", () => {
  assert.deepEqual(parse("__proto__[admin]=1&ok=1"), { ok: "1" });
  assert.equal({}.admin, undefined);
});
