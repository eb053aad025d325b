import assert from "node:assert/strict";
import { test } from "node:test";
import { parse, stringify } from "../src/qs.mjs";

test("a plus in a form-encoded query is a space", () => {
  assert.deepEqual(parse("q=hello+world&x=a%2Bb"), { q: "hello world", x: "a+b" });
});

test("repeated keys keep every value, in order", () => {
  assert.deepEqual(parse("id=3&id=1&id=2&one=x"), { id: ["3", "1", "2"], one: "x" });
});

test("stringify writes arrays as repeated keys and round-trips", () => {
  const params = { id: ["3", "1"], q: "a b", empty: "" };
  const text = stringify(params);
  assert.equal(text, "id=3&id=1&q=a%20b&empty=");
  assert.deepEqual(parse(text), params);
});
