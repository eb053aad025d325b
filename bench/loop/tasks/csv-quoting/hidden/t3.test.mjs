import assert from "node:assert/strict";
import { test } from "node:test";
import { parseCsv, stringifyCsv } from "../src/csv.mjs";

test("fields are quoted only when needed, rows end with CRLF", () => {
  assert.equal(stringifyCsv([["plain", "with space", ""]]), "plain,with space,\r\n");
  assert.equal(
    stringifyCsv([['say "hi"', "a,b", "two\nlines"]]),
    '"say ""hi""","a,b","two\nlines"\r\n',
  );
  assert.equal(stringifyCsv([[1, true, null, undefined]]), "1,true,,\r\n");
});

test("whatever stringifyCsv writes, parseCsv reads back", () => {
  const rows = [
    ["id", "note", "quote"],
    ["1", "multi\r\nline", '"quoted"'],
    ["2", ",,,", ""],
  ];
  assert.deepEqual(parseCsv(stringifyCsv(rows)), rows);
});
