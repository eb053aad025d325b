import assert from "node:assert/strict";
import { test } from "node:test";
import { parseCsv } from "../src/csv.mjs";

test("rows and fields", () => {
  assert.deepEqual(parseCsv("a,b,c\n1,2,3\n"), [
    ["a", "b", "c"],
    ["1", "2", "3"],
  ]);
  assert.deepEqual(parseCsv("x,,z"), [["x", "", "z"]]);
});

test("quoted fields hold commas and doubled quotes", () => {
  assert.deepEqual(parseCsv('"a,b","say ""hi""",c'), [["a,b", 'say "hi"', "c"]]);
});

test("quoted line breaks and CRLF rows", () => {
  assert.deepEqual(parseCsv('id,note\r\n1,"two\nlines"\r\n'), [
    ["id", "note"],
    ["1", "two\nlines"],
  ]);
});
