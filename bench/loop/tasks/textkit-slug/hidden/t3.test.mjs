import assert from "node:assert/strict";
import { test } from "node:test";
import { slugify } from "../src/text.mjs";

test("a custom separator joins the words", () => {
  assert.equal(slugify("Crème Brûlée recipe", { separator: "_" }), "creme_brulee_recipe");
  assert.equal(slugify("a b c", { separator: "" }), "abc");
  assert.equal(slugify("a b c", { separator: "--" }), "a--b--c");
});

test("separator and maxLength work together", () => {
  assert.equal(slugify("one two three", { separator: "__", maxLength: 9 }), "one__two");
});

test("a separator made of letters or digits is refused", () => {
  assert.throws(() => slugify("a b", { separator: "x" }), RangeError);
  assert.throws(() => slugify("a b", { separator: "1" }), RangeError);
});
