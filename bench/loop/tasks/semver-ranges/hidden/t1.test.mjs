import assert from "node:assert/strict";
import { test } from "node:test";
import { compare } from "../src/semver.mjs";

// The precedence example of SemVer 2.0.0 §11.
const SPEC_ORDER = [
  "1.0.0-alpha",
  "1.0.0-alpha.1",
  "1.0.0-alpha.beta",
  "1.0.0-beta",
  "1.0.0-beta.2",
  "1.0.0-beta.11",
  "1.0.0-rc.1",
  "1.0.0",
];

test("sorting by compare gives the SemVer order", () => {
  const shuffled = [5, 2, 7, 0, 4, 6, 1, 3].map((i) => SPEC_ORDER[i]);
  assert.deepEqual([...shuffled].sort(compare), SPEC_ORDER);
});

test("compare is antisymmetric on prereleases", () => {
  for (let i = 0; i < SPEC_ORDER.length; i++) {
    for (let j = 0; j < SPEC_ORDER.length; j++) {
      assert.equal(compare(SPEC_ORDER[i], SPEC_ORDER[j]), Math.sign(i - j), `${i} ${j}`);
    }
  }
});

test("a prerelease of a higher version still outranks a lower release", () => {
  assert.equal(compare("1.0.1-alpha", "1.0.0"), 1);
  assert.equal(compare("2.0.0-rc.1", "1.99.99"), 1);
});
