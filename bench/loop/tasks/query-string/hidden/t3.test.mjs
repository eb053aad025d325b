import assert from "node:assert/strict";
import { test } from "node:test";
import { parse } from "../src/qs.mjs";

test("__proto__ keys never reach Object.prototype", () => {
  const out = parse("__proto__[polluted]=yes&a[__proto__][polluted]=yes&b=1");
  assert.equal({}.polluted, undefined);
  assert.equal(Object.prototype.polluted, undefined);
  assert.deepEqual(out, { b: "1" });
});

test("constructor and prototype keys are dropped, anywhere in the path", () => {
  assert.deepEqual(parse("constructor[prototype][x]=1&user[constructor]=2&user[name]=Ann"), {
    user: { name: "Ann" },
  });
  assert.deepEqual(parse("prototype=1&constructor=2&keep=3"), { keep: "3" });
});
