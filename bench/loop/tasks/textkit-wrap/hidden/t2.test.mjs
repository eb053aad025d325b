import assert from "node:assert/strict";
import { test } from "node:test";
import { wrap } from "../src/text.mjs";

test("blank lines separate paragraphs, kept as one empty line", () => {
  const text = "First paragraph here.\n\nSecond one,\nwrapped.\n \n\nThird.";
  assert.deepEqual(wrap(text, 12), [
    "First",
    "paragraph",
    "here.",
    "",
    "Second one,",
    "wrapped.",
    "",
    "Third.",
  ]);
});

test("single newlines are just spaces; leading and trailing blank lines vanish", () => {
  assert.deepEqual(wrap("\n\na\nb\n\n", 10), ["a b"]);
});
