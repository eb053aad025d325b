import assert from "node:assert/strict";
import { test } from "node:test";
import { parse, stringify } from "../src/ini.mjs";

test("stringify writes the global section first, then each section", () => {
  const text = stringify({ "": { app: "web" }, db: { host: "localhost", port: 5432 } });
  assert.equal(text, "app = web\n\n[db]\nhost = localhost\nport = 5432\n");
});

test("whatever parse would misread is quoted, so typed data round-trips", () => {
  const data = {
    "": { title: "  spaced  ", flag: "true", zip: "01234", empty: "" },
    paths: { home: 'C:\\Users\\ann "admin"', note: "a ; b # c" },
    limits: { max: 10, ratio: 0.5, on: true },
  };
  assert.deepEqual(parse(stringify(data), { typed: true }), data);
});

test("a value on several lines cannot be written", () => {
  assert.throws(() => stringify({ "": { bad: "one\ntwo" } }), /one line/);
});
