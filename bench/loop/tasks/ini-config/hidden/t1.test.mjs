import assert from "node:assert/strict";
import { test } from "node:test";
import { parse } from "../src/ini.mjs";

test("typed: booleans and numbers, only when asked", () => {
  const text = "[server]\nport = 8080\nratio = -0.25\ntls = false\nverbose = true\nname = web1\n";
  assert.deepEqual(parse(text, { typed: true }).server, {
    port: 8080,
    ratio: -0.25,
    tls: false,
    verbose: true,
    name: "web1",
  });
  assert.deepEqual(parse(text).server.port, "8080");
});

test("double quotes keep a value a string, with its spaces and escapes", () => {
  const text = 'a = "  padded  "\nb = "true"\nc = "007"\nd = "say \\"hi\\""\ne = ""\n';
  assert.deepEqual(parse(text, { typed: true })[""], {
    a: "  padded  ",
    b: "true",
    c: "007",
    d: 'say "hi"',
    e: "",
  });
});

test("values that merely look numeric in part stay strings", () => {
  const out = parse("v = 1.2.3\nw = 12px\nx = 0x10\n", { typed: true })[""];
  assert.deepEqual(out, { v: "1.2.3", w: "12px", x: "0x10" });
});
