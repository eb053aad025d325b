import assert from "node:assert/strict";
import { test } from "node:test";
import { compare, parse } from "../src/semver.mjs";

test("build metadata parses into its identifiers", () => {
  assert.deepEqual(parse("1.0.0+20130313144700").build, ["20130313144700"]);
  const v = parse("1.0.0-beta+exp.sha.5114f85");
  assert.deepEqual(v.prerelease, ["beta"]);
  assert.deepEqual(v.build, ["exp", "sha", "5114f85"]);
  assert.deepEqual(parse("1.2.3").build, []);
});

test("build metadata does not change precedence", () => {
  assert.equal(compare("1.0.0+a", "1.0.0+b"), 0);
  assert.equal(compare("1.0.0+zzz", "1.0.0"), 0);
  assert.equal(compare("1.0.0-alpha+001", "1.0.0-alpha.1"), -1);
  assert.equal(compare("1.0.0-rc.1+build.1", "1.0.0"), -1);
});

test("malformed build metadata is refused", () => {
  for (const bad of ["1.0.0+", "1.0.0+a..b", "1.0.0+a_b", "1.0.0+ab+cd"]) {
    assert.throws(() => parse(bad), /invalid version/, bad);
  }
});
