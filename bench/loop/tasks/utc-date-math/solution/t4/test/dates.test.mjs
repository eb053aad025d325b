import assert from "node:assert/strict";
import { test } from "node:test";
import {
  addBusinessDays,
  addDays,
  addMonths,
  diffInCalendarDays,
  isoWeek,
  isWeekend,
  startOfDay,
} from "../src/dates.mjs";

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

test("addBusinessDays skips weekends", () => {
  assert.deepEqual(addBusinessDays(d("2024-05-03T09:00:00Z"), 1), d("2024-05-06T09:00:00Z"));
  assert.deepEqual(addBusinessDays(d("2024-05-06T09:00:00Z"), -1), d("2024-05-03T09:00:00Z"));
});

test("diffInCalendarDays counts midnights crossed", () => {
  assert.equal(diffInCalendarDays(d("2024-03-10T23:00:00Z"), d("2024-03-11T01:00:00Z")), 1);
  assert.equal(diffInCalendarDays(d("2024-03-11T01:00:00Z"), d("2024-03-10T23:00:00Z")), -1);
});

test("isoWeek follows ISO 8601 at year boundaries", () => {
  assert.deepEqual(isoWeek(d("2021-01-03T12:00:00Z")), { year: 2020, week: 53 });
  assert.deepEqual(isoWeek(d("2024-12-30T12:00:00Z")), { year: 2025, week: 1 });
});
