import assert from "node:assert/strict";
import { test } from "node:test";
import { slugify } from "../src/text.mjs";

test("lowercases and joins words with dashes", () => {
  assert.equal(slugify("Hello, World!"), "hello-world");
  assert.equal(slugify("  --Release 2.0--  "), "release-2-0");
});

test("accented letters lose their accents", () => {
  assert.equal(slugify("Crème Brûlée"), "creme-brulee");
  assert.equal(slugify("Straße"), "strasse");
});

test("maxLength cuts at a word boundary", () => {
  assert.equal(slugify("the quick brown fox", { maxLength: 12 }), "the-quick");
  assert.equal(slugify("supercalifragilistic", { maxLength: 5 }), "super");
});

test("the separator can be chosen", () => {
  assert.equal(slugify("Hello big World", { separator: "_" }), "hello_big_world");
  assert.throws(() => slugify("x", { separator: "a" }), RangeError);
});
