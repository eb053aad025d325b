import assert from "node:assert/strict";
import { test } from "node:test";
import { wrap } from "../src/text.mjs";

test("indent starts every line and counts towards the width", () => {
  const lines = wrap("one two three four\n\nfive", 10, { indent: "    " });
  assert.deepEqual(lines, ["    one", "    two", "    three", "    four", "", "    five"]);
  for (const line of lines) assert.ok(line.length <= 10);
});

test("long words are cut to the room the indent leaves", () => {
  assert.deepEqual(wrap("abcdefgh", 5, { indent: "- " }), ["- abc", "- def", "- gh"]);
});

test("an indent that leaves no room is refused", () => {
  assert.throws(() => wrap("x", 4, { indent: "    " }), RangeError);
  assert.deepEqual(wrap("a b", 3), ["a b"]);
});
