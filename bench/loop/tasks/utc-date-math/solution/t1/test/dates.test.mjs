import assert from "node:assert/strict";
import { test } from "node:test";
import { addDays, addMonths, isWeekend, startOfDay } from "../src/dates.mjs";

const d = (iso) => new Date(iso);

test("addDays keeps the time of day", () => {
  assert.deepEqual(addDays(d("2024-02-28T10:00:00Z"), 2), d("2024-03-01T10:00:00Z"));
  assert.deepEqual(addDays(d("2024-01-01T00:00:00Z"), -1), d("2023-12-31T00:00:00Z"));
});

test("startOfDay and isWeekend are UTC", () => {
  assert.deepEqual(startOfDay(d("2024-05-05T23:59:59Z")), d("2024-05-05T00:00:00Z"));
  assert.equal(isWeekend(d("2024-05-04T12:00:00Z")), true);
  assert.equal(isWeekend(d("2024-05-06T12:00:00Z")), false);
});

test("addMonths clamps to the end of shorter months", () => {
  assert.deepEqual(addMonths(d("2024-01-31T08:00:00Z"), 1), d("2024-02-29T08:00:00Z"));
  assert.deepEqual(addMonths(d("2024-03-15T00:00:00Z"), -3), d("2023-12-15T00:00:00Z"));
});
