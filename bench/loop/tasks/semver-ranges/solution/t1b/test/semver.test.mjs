import assert from "node:assert/strict";
import { test } from "node:test";
import { compare, parse } from "../src/semver.mjs";

test("parse splits the parts", () => {
  assert.deepEqual(parse("1.2.3-rc.1+build.9"), {
    major: 1,
    minor: 2,
    patch: 3,
    prerelease: ["rc", "1"],
    build: ["build", "9"],
  });
  assert.throws(() => parse("1.2"), /invalid version/);
  assert.throws(() => parse("01.2.3"), /invalid version/);
});

test("compare orders major, minor, patch numerically", () => {
  assert.equal(compare("1.10.0", "1.9.9"), 1);
  assert.equal(compare("2.0.0", "10.0.0"), -1);
  assert.equal(compare("1.2.3", "1.2.3"), 0);
});

test("prereleases rank below their release, per SemVer", () => {
  const ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-beta", "1.0.0-beta.2", "1.0.0"];
  for (let i = 1; i < ordered.length; i++) assert.equal(compare(ordered[i - 1], ordered[i]), -1);
});

test("build metadata is ignored when comparing", () => {
  assert.equal(compare("1.0.0+a", "1.0.0+b"), 0);
});
