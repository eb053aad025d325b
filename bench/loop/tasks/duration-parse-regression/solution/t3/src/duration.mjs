const UNITS = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };

/**
 * "1h30m" → 5400000: a duration written as number-unit pairs, in milliseconds, optionally
 * separated by spaces. Anything else is an error: skipping it would silently shorten the
 * duration ("1h30x" is not one hour).
 */
export function parseDuration(text) {
  const source = text.trim();
  if (source === "") throw new Error("not a duration: empty text");
  let total = 0;
  let at = 0;
  // "ms" before "m": alternation takes the first unit that matches, and "m" is a prefix of "ms"
  // (issue #212).
  const pair = /\s*(\d+)(ms|d|h|m|s)\s*/y;
  while (at < source.length) {
    pair.lastIndex = at;
    const m = pair.exec(source);
    if (m === null) {
      throw new Error(`not a duration: "${text}" (unexpected "${source.slice(at)}")`);
    }
    total += Number(m[1]) * UNITS[m[2]];
    at = pair.lastIndex;
  }
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
