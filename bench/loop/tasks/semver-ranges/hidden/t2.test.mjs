import assert from "node:assert/strict";
import { test } from "node:test";
import { satisfies } from "../src/semver.mjs";

test("comparators and comparator sets", () => {
  assert.equal(satisfies("1.2.3", "1.2.3"), true);
  assert.equal(satisfies("1.2.3", "=1.2.3"), true);
  assert.equal(satisfies("1.2.4", "1.2.3"), false);
  assert.equal(satisfies("1.2.3", ">1.2.3"), false);
  assert.equal(satisfies("1.2.3", ">=1.2.3 <=1.2.3"), true);
  assert.equal(satisfies("1.4.0", ">=1.2.0 <1.4.0"), false);
  assert.equal(satisfies("1.3.9", ">= 1.2.0 < 1.4.0"), true);
});

test("|| joins alternatives", () => {
  assert.equal(satisfies("0.9.0", "<1.0.0 || >=2.0.0"), true);
  assert.equal(satisfies("1.5.0", "<1.0.0 || >=2.0.0"), false);
  assert.equal(satisfies("2.0.0", "<1.0.0 || >=2.0.0"), true);
});

test("versions carrying build metadata can be checked", () => {
  assert.equal(satisfies("1.2.3+build.7", ">=1.2.3"), true);
  assert.equal(satisfies("1.0.0-rc.1", "<1.0.0"), true);
});

test("a malformed range is an error, not a false", () => {
  assert.throws(() => satisfies("1.0.0", ">=banana"), TypeError);
  assert.throws(() => satisfies("1.0.0", "1.0.0 ||"), TypeError);
});
