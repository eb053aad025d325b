import assert from "node:assert/strict";
import { test } from "node:test";
import { parseCsv } from "../src/csv.mjs";

test("commas inside quotes do not split the field", () => {
  assert.deepEqual(parseCsv('name,city\n"Smith, Ann","Paris, FR"\n'), [
    ["name", "city"],
    ["Smith, Ann", "Paris, FR"],
  ]);
});

test('"" inside a quoted field is one quote; empty quotes are an empty field', () => {
  assert.deepEqual(parseCsv('"He said ""no""","",x'), [['He said "no"', "", "x"]]);
  assert.deepEqual(parseCsv('""""'), [['"']]);
});

test("a quote that never closes is an error", () => {
  assert.throws(() => parseCsv('a,"open\n'), /unterminated/);
});
