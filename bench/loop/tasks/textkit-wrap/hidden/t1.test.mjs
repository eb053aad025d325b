import assert from "node:assert/strict";
import { test } from "node:test";
import { wrap } from "../src/text.mjs";

test("a word longer than the width is cut into pieces", () => {
  assert.deepEqual(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
  assert.deepEqual(wrap("see https://example.com/a/very/long/path now", 12), [
    "see",
    "https://exam",
    "ple.com/a/ve",
    "ry/long/path",
    "now",
  ]);
});

test("no line is ever longer than the width", () => {
  const text = "lorem ipsum dolor sit amet consecteturadipiscingelit sed do eiusmod";
  for (const width of [1, 3, 5, 8, 13]) {
    for (const line of wrap(text, width)) assert.ok(line.length <= width, `${width}: ${line}`);
    assert.equal(wrap(text, width).join("").replace(/\s/g, ""), text.replace(/\s/g, ""));
  }
});
