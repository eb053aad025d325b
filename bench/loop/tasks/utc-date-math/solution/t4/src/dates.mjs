/** Date helpers. Everything is UTC: a local time zone must never change an answer. */

const DAY_MS = 86_400_000;

/** `date` plus `n` whole days (n may be negative); the time of day is kept. */
export function addDays(date, n) {
  return new Date(date.getTime() + n * DAY_MS);
}

/** Midnight UTC of the day `date` falls on. */
export function startOfDay(date) {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

export function isWeekend(date) {
  const day = date.getUTCDay();
  return day === 0 || day === 6;
}

function daysInMonth(year, month) {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/**
 * `date` plus `n` calendar months; a day the target month lacks becomes its last day
 * (Jan 31 + 1 month is Feb 28 or 29), since Date.UTC would roll over into the next month.
 */
export function addMonths(date, n) {
  const total = date.getUTCFullYear() * 12 + date.getUTCMonth() + n;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(date.getUTCDate(), daysInMonth(year, month));
  const out = new Date(date.getTime());
  out.setUTCFullYear(year, month, day);
  return out;
}

/** `date` plus `n` working days (Monday to Friday); the time of day is kept. */
export function addBusinessDays(date, n) {
  const step = n < 0 ? -1 : 1;
  let out = new Date(date.getTime());
  // From a weekend, the first step lands on the nearest working day in that direction.
  for (let left = Math.abs(n); left > 0; ) {
    out = addDays(out, step);
    if (!isWeekend(out)) left--;
  }
  return out;
}

/** Calendar days from `a` to `b` in UTC: 23:00 to 01:00 the next day is 1, whatever the hours. */
export function diffInCalendarDays(a, b) {
  return Math.round((startOfDay(b).getTime() - startOfDay(a).getTime()) / DAY_MS);
}

/**
 * The ISO 8601 week of `date`: weeks start on Monday and week 1 holds the year's first
 * Thursday, so early January can belong to the previous year's last week.
 */
export function isoWeek(date) {
  const day = startOfDay(date);
  const weekday = day.getUTCDay() || 7;
  // The Thursday of this week decides the year.
  const thursday = addDays(day, 4 - weekday);
  const year = thursday.getUTCFullYear();
  const week = Math.floor(diffInCalendarDays(new Date(Date.UTC(year, 0, 1)), thursday) / 7) + 1;
  return { year, week };
}
