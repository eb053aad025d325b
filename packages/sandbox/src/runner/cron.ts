/** Whether a 5-field cron expression (UTC) matches a moment: `*`, `*\/n`, `a-b`, `a,b`, numbers. */
export function cronMatches(expr: string, at: Date): boolean {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) return false;
  const values = [
    at.getUTCMinutes(),
    at.getUTCHours(),
    at.getUTCDate(),
    at.getUTCMonth() + 1,
    at.getUTCDay(),
  ];
  return fields.every((field, i) => fieldMatches(field, values[i] ?? -1, i === 4));
}

function fieldMatches(field: string, value: number, weekday: boolean): boolean {
  return field.split(",").some((part) => {
    const [range = "*", stepText] = part.split("/");
    const step = stepText === undefined ? 1 : Number(stepText);
    let lo: number;
    let hi: number;
    if (range === "*") {
      lo = 0;
      hi = 59;
    } else if (range.includes("-")) {
      [lo, hi] = range.split("-").map(Number) as [number, number];
    } else {
      lo = Number(range);
      hi = stepText === undefined ? lo : 59;
    }
    const v = weekday && value === 0 && hi === 7 ? 7 : value;
    return v >= lo && v <= hi && (v - lo) % step === 0;
  });
}
