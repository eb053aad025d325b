import assert from "node:assert/strict";
import { test } from "node:test";
import { satisfies } from "../src/semver.mjs";

const yes = (v, r) => assert.equal(satisfies(v, r), true, `${v} in ${r}`);
const no = (v, r) => assert.equal(satisfies(v, r), false, `${v} not in ${r}`);

test("caret keeps the left-most non-zero part", () => {
  yes("1.2.3", "^1.2.3");
  yes("1.99.0", "^1.2.3");
  no("1.2.2", "^1.2.3");
  no("2.0.0", "^1.2.3");
  no("2.0.0-alpha", "^1.2.3");
  yes("0.2.5", "^0.2.3");
  no("0.3.0", "^0.2.3");
  yes("0.0.3", "^0.0.3");
  no("0.0.4", "^0.0.3");
});

test("tilde allows patch-level changes", () => {
  yes("1.2.3", "~1.2.3");
  yes("1.2.99", "~1.2.3");
  no("1.3.0", "~1.2.3");
  yes("0.2.4", "~0.2.3");
  no("0.3.0", "~0.2.3");
});

test("carets and tildes mix with comparators and ||", () => {
  yes("3.1.0", "^1.0.0 || ~3.1.0");
  no("3.2.0", "^1.0.0 || ~3.1.0");
  no("1.5.0", "^1.0.0 <1.5.0");
});
