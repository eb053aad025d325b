import assert from "node:assert/strict";
import { test } from "node:test";
import { addMonths } from "../src/dates.mjs";

const d = (iso) => new Date(iso);

test("month ends clamp, in leap and common years", () => {
  assert.deepEqual(addMonths(d("2024-01-31T00:00:00Z"), 1), d("2024-02-29T00:00:00Z"));
  assert.deepEqual(addMonths(d("2023-01-31T00:00:00Z"), 1), d("2023-02-28T00:00:00Z"));
  assert.deepEqual(addMonths(d("2024-05-31T15:30:00Z"), -1), d("2024-04-30T15:30:00Z"));
  assert.deepEqual(addMonths(d("2024-02-29T00:00:00Z"), 12), d("2025-02-28T00:00:00Z"));
});

test("crossing years both ways keeps day and time", () => {
  assert.deepEqual(addMonths(d("2024-11-15T06:07:08Z"), 3), d("2025-02-15T06:07:08Z"));
  assert.deepEqual(addMonths(d("2024-01-15T06:07:08Z"), -13), d("2022-12-15T06:07:08Z"));
  assert.deepEqual(addMonths(d("2024-08-20T00:00:00Z"), 0), d("2024-08-20T00:00:00Z"));
});

test("the input is not modified", () => {
  const input = d("2024-01-31T00:00:00Z");
  addMonths(input, 1);
  assert.deepEqual(input, d("2024-01-31T00:00:00Z"));
});
