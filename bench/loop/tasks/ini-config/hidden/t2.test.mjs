import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const workflow = () => readFileSync(".github/workflows/ci.yml", "utf8");

test("CI runs on Node 20 and 22 through a matrix", () => {
  const text = workflow();
  const matrix = /node-version:\s*\[([^\]]*)\]/.exec(text);
  assert.ok(matrix, "a matrix of node-version values");
  const versions = matrix[1].split(",").map((v) => v.trim().replace(/['"]/g, ""));
  assert.deepEqual(versions.sort(), ["20", "22"]);
  assert.match(text, /node-version:\s*\$\{\{\s*matrix\.node-version\s*\}\}/);
});

test("CI no longer uses Node 16 and still runs npm test", () => {
  const text = workflow();
  assert.doesNotMatch(text, /node-version:\s*['"]?16\b/);
  assert.match(text, /^\s*- run: npm test\s*$/m);
  assert.match(text, /uses: actions\/setup-node@/);
});
