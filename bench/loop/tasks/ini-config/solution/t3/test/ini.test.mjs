import assert from "node:assert/strict";
import { test } from "node:test";
import { parse, stringify } from "../src/ini.mjs";

test("sections, keys and comments", () => {
  const text = "name = app\n; a comment\n[db]\nhost = localhost\n# another\nport=5432\n";
  assert.deepEqual(parse(text), {
    "": { name: "app" },
    db: { host: "localhost", port: "5432" },
  });
});

test("typed values on request, quoted values stay strings", () => {
  const text = 'debug = true\nport = 8080\nname = "42"\n';
  assert.deepEqual(parse(text, { typed: true }), { "": { debug: true, port: 8080, name: "42" } });
  assert.deepEqual(parse(text), { "": { debug: "true", port: "8080", name: "42" } });
});

test("stringify round-trips typed data", () => {
  const data = { "": { name: "app" }, db: { port: 5432, ssl: false, note: " padded; odd " } };
  assert.deepEqual(parse(stringify(data), { typed: true }), data);
});
