import assert from "node:assert/strict";
import { test } from "node:test";
import { parse, stringify } from "../src/qs.mjs";

test("parse decodes keys and values", () => {
  assert.deepEqual(parse("?q=caf%C3%A9&page=2&flag"), { q: "café", page: "2", flag: "" });
});

test("stringify encodes and skips undefined", () => {
  assert.equal(stringify({ q: "a&b", n: 3, gone: undefined }), "q=a%26b&n=3");
});
