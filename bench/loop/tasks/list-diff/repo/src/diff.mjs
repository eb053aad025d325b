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
