const UNITS = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };

/** "1h30m" → 5400000: a duration written as number-unit pairs, in milliseconds. */
export function parseDuration(text) {
  let total = 0;
  let matched = false;
  for (const [, n, unit] of text.matchAll(/(\d+)(d|h|m|s|ms)/g)) {
    total += Number(n) * UNITS[unit];
    matched = true;
  }
  if (!matched) throw new Error(`not a duration: "${text}"`);
  return total;
}

/** 5400000 → "1h30m": largest units first, zero units left out. */
export function formatDuration(ms) {
  if (ms === 0) return "0ms";
  let rest = ms;
  let out = "";
  for (const [unit, size] of Object.entries(UNITS)) {
    const n = Math.floor(rest / size);
    if (n > 0) {
      out += `${n}${unit}`;
      rest -= n * size;
    }
  }
  return out;
}
