import assert from "node:assert/strict";
import { test } from "node:test";
import { diffInCalendarDays } from "../src/dates.mjs";

const d = (iso) => new Date(iso);

test("days are counted as UTC midnights crossed, not 24-hour spans", () => {
  assert.equal(diffInCalendarDays(d("2024-03-30T23:30:00Z"), d("2024-03-31T00:30:00Z")), 1);
  assert.equal(diffInCalendarDays(d("2024-03-31T00:30:00Z"), d("2024-03-31T23:30:00Z")), 0);
  assert.equal(diffInCalendarDays(d("2024-10-27T12:00:00Z"), d("2024-10-20T13:00:00Z")), -7);
});

test("across years and leap days", () => {
  assert.equal(diffInCalendarDays(d("2023-12-31T00:00:00Z"), d("2024-03-01T00:00:00Z")), 61);
  assert.equal(diffInCalendarDays(d("2000-01-01T00:00:00Z"), d("2025-01-01T00:00:00Z")), 9132);
});
