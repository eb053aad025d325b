/**
 * The edit script turning list `a` into list `b`, from a longest common subsequence:
 * [{ op: "keep" | "remove" | "add", value }], removals before additions at each change.
 */
export function diff(a, b) {
  // lcs[i][j]: length of the LCS of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const ops = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ op: "keep", value: a[i] });
      i++;
      j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
      ops.push({ op: "remove", value: a[i++] });
    } else {
      ops.push({ op: "add", value: b[j++] });
    }
  }
  while (i < a.length) ops.push({ op: "remove", value: a[i++] });
  while (j < b.length) ops.push({ op: "add", value: b[j++] });
  return ops;
}

/** Applies `ops` (from diff) to `a`; throws when they were made for another list. */
export function patch(a, ops) {
  const out = [];
  let i = 0;
  for (const { op, value } of ops) {
    if (op === "add") {
      out.push(value);
      continue;
    }
    if (i >= a.length || a[i] !== value) {
      throw new Error(`patch does not apply at index ${i}: expected ${JSON.stringify(value)}`);
    }
    if (op === "keep") out.push(a[i]);
    i++;
  }
  if (i !== a.length) throw new Error(`patch does not apply: ${a.length - i} items left over`);
  return out;
}

/**
 * Groups ops into hunks: each change with up to `context` unchanged items either side; runs
 * of keeps farther from any change are left out. aStart/bStart are 0-based indexes.
 */
export function hunks(ops, context = 1) {
  const out = [];
  let a = 0;
  let b = 0;
  let current = null;
  let lastChange = -1;
  ops.forEach((o, k) => {
    if (o.op !== "keep") {
      if (current === null || k - lastChange > 2 * context + 1) {
        if (current !== null) current.ops = ops.slice(current.from, lastChange + context + 1);
        const from = Math.max(k - context, 0);
        const back = k - from;
        current = { aStart: a - back, bStart: b - back, from, ops: [] };
        out.push(current);
      }
      lastChange = k;
    }
    if (o.op !== "add") a++;
    if (o.op !== "remove") b++;
  });
  if (current !== null) current.ops = ops.slice(current.from, lastChange + context + 1);
  return out.map(({ aStart, bStart, ops: hunkOps }) => ({ aStart, bStart, ops: hunkOps }));
}
