import assert from "node:assert/strict";
import { test } from "node:test";
import { slugify } from "../src/text.mjs";

test("maxLength keeps whole words", () => {
  const title = "How we cut our build time in half";
  assert.equal(slugify(title, { maxLength: 20 }), "how-we-cut-our-build");
  assert.equal(slugify(title, { maxLength: 19 }), "how-we-cut-our");
  assert.equal(slugify(title, { maxLength: 100 }), "how-we-cut-our-build-time-in-half");
});

test("a first word longer than maxLength is cut", () => {
  assert.equal(slugify("Pneumonoultramicroscopic dust", { maxLength: 8 }), "pneumono");
});

test("slugs never end with a separator", () => {
  for (let n = 1; n < 30; n++) {
    const s = slugify("a bb ccc dddd eeeee", { maxLength: n });
    assert.ok(s.length <= n && !s.endsWith("-"), `${n}: ${s}`);
  }
});
