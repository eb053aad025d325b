import assert from "node:assert/strict";
import { test } from "node:test";
import { parse } from "../src/ini.mjs";

test("sections, keys and comments", () => {
  const text = "name = app\n; a comment\n[db]\nhost = localhost\n# another\nport=5432\n";
  assert.deepEqual(parse(text), {
    "": { name: "app" },
    db: { host: "localhost", port: "5432" },
  });
});
