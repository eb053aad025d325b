import assert from "node:assert/strict";
import { test } from "node:test";
import { wrap } from "../src/text.mjs";

test("wraps at spaces within the width", () => {
  assert.deepEqual(wrap("the quick brown fox jumps", 10), ["the quick", "brown fox", "jumps"]);
  assert.deepEqual(wrap("   ", 10), []);
});

test("cuts words longer than the width", () => {
  assert.deepEqual(wrap("a abcdefghij b", 4), ["a", "abcd", "efgh", "ij b"]);
});

test("keeps paragraphs apart", () => {
  assert.deepEqual(wrap("one two\n\nthree", 20), ["one two", "", "three"]);
});
