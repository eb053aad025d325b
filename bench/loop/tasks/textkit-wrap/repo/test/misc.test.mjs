import assert from "node:assert/strict";
import { test } from "node:test";
import { squish, truncate } from "../src/text.mjs";

test("squish and truncate", () => {
  assert.equal(squish("  a \n\t b  "), "a b");
  assert.equal(truncate("abcdef", 4), "abc…");
  assert.equal(truncate("abc", 4), "abc");
});
