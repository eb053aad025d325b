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
