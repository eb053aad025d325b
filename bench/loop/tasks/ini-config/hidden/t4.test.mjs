import assert from "node:assert/strict";
import { test } from "node:test";
import { parse } from "../src/ini.mjs";

test("a line that is neither a setting nor a header names its line number", () => {
  const text = "name = app\n\n[db]\nhost localhost\n";
  assert.throws(
    () => parse(text),
    (e) => e instanceof SyntaxError && /line 4/.test(e.message) && /host localhost/.test(e.message),
  );
});

test("an unclosed header and an empty key are errors too", () => {
  assert.throws(() => parse("[db\nhost = x\n"), /line 1/);
  assert.throws(() => parse("a = 1\r\n= 2\r\n"), /line 2/);
});

test("comments and blank lines are still fine", () => {
  assert.deepEqual(parse("; c\n# c\n\n  \n[s]\nk = v\n"), { "": {}, s: { k: "v" } });
});
