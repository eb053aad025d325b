import assert from "node:assert/strict";
import { test } from "node:test";
import { addBusinessDays } from "../src/dates.mjs";

const d = (iso) => new Date(iso);

test("Friday plus one working day is Monday; Monday minus one is Friday", () => {
  assert.deepEqual(addBusinessDays(d("2024-06-07T17:00:00Z"), 1), d("2024-06-10T17:00:00Z"));
  assert.deepEqual(addBusinessDays(d("2024-06-10T17:00:00Z"), -1), d("2024-06-07T17:00:00Z"));
});

test("a whole week of working days is seven calendar days", () => {
  assert.deepEqual(addBusinessDays(d("2024-06-05T00:00:00Z"), 5), d("2024-06-12T00:00:00Z"));
  assert.deepEqual(addBusinessDays(d("2024-06-05T00:00:00Z"), 10), d("2024-06-19T00:00:00Z"));
});

test("from a weekend, the first working day counts as one", () => {
  assert.deepEqual(addBusinessDays(d("2024-06-08T12:00:00Z"), 1), d("2024-06-10T12:00:00Z"));
  assert.deepEqual(addBusinessDays(d("2024-06-09T12:00:00Z"), -1), d("2024-06-07T12:00:00Z"));
  assert.deepEqual(addBusinessDays(d("2024-06-08T12:00:00Z"), 0), d("2024-06-08T12:00:00Z"));
});
