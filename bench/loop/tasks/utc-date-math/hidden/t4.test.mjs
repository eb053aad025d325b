import assert from "node:assert/strict";
import { test } from "node:test";
import { isoWeek } from "../src/dates.mjs";

const d = (iso) => new Date(iso);

test("ISO weeks at year boundaries", () => {
  const cases = [
    ["2005-01-01", 2004, 53],
    ["2005-01-02", 2004, 53],
    ["2005-12-31", 2005, 52],
    ["2007-01-01", 2007, 1],
    ["2008-12-29", 2009, 1],
    ["2010-01-03", 2009, 53],
    ["2020-12-31", 2020, 53],
    ["2021-01-04", 2021, 1],
    ["2026-06-15", 2026, 25],
  ];
  for (const [day, year, week] of cases) {
    assert.deepEqual(isoWeek(d(`${day}T23:59:00Z`)), { year, week }, day);
  }
});
