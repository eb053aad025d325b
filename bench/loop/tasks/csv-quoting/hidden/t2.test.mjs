import assert from "node:assert/strict";
import { test } from "node:test";
import { parseCsv } from "../src/csv.mjs";

test("a quoted field may span lines", () => {
  assert.deepEqual(parseCsv('id,address\n7,"1 Main St\nSpringfield"\n8,"x"\n'), [
    ["id", "address"],
    ["7", "1 Main St\nSpringfield"],
    ["8", "x"],
  ]);
});

test("CRLF rows parse like LF rows, and keep CRLF inside quotes", () => {
  assert.deepEqual(parseCsv('a,b\r\n1,"x\r\ny"\r\n2,3'), [
    ["a", "b"],
    ["1", "x\r\ny"],
    ["2", "3"],
  ]);
});

test("an unterminated quote names the line it started on", () => {
  assert.throws(() => parseCsv('a\nb\n"never\nclosed'), /line 3: unterminated/);
});
