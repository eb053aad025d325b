import assert from "node:assert/strict";
import { test } from "node:test";
import { parse, stringify } from "../src/qs.mjs";

test("bracketed keys build nested objects and lists", () => {
  assert.deepEqual(parse("filter[status]=open&filter[labels][]=bug&filter[labels][]=ui&page=2"), {
    filter: { status: "open", labels: ["bug", "ui"] },
    page: "2",
  });
});

test("encoded brackets nest too", () => {
  assert.deepEqual(parse("a%5Bb%5D%5Bc%5D=deep"), { a: { b: { c: "deep" } } });
});

test("nested params round-trip through stringify", () => {
  const params = { sort: "name", filter: { status: "open", owner: { login: "ann" } } };
  assert.deepEqual(parse(stringify(params)), params);
});
