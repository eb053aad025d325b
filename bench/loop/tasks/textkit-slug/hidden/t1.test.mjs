import assert from "node:assert/strict";
import { test } from "node:test";
import { slugify } from "../src/text.mjs";

test("accents are dropped, not the letters", () => {
  assert.equal(slugify("Crème Brûlée, 2e édition!"), "creme-brulee-2e-edition");
  assert.equal(slugify("Ångström"), "angstrom");
  assert.equal(slugify("Łódź Straße Œuvre Æsir"), "lodz-strasse-oeuvre-aesir");
  assert.equal(slugify("Ça va? Ñandú"), "ca-va-nandu");
});

test("precomposed and decomposed input give the same slug", () => {
  assert.equal(slugify("Cafe\u0301"), slugify("Caf\u00e9"));
  assert.equal(slugify("Caf\u00e9"), "cafe");
});

test("ASCII input is unchanged from before", () => {
  assert.equal(slugify("Hello, World!"), "hello-world");
});
