const VERSION =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

/** "1.2.3-beta.1" → { major: 1, minor: 2, patch: 3, prerelease: ["beta", "1"] }. */
export function parse(text) {
  const m = VERSION.exec(text.trim());
  if (m === null) throw new TypeError(`invalid version: "${text}"`);
  return {
    major: Number(m[1]),
    minor: Number(m[2]),
    patch: Number(m[3]),
    prerelease: m[4] === undefined ? [] : m[4].split("."),
  };
}

const NUMERIC = /^\d+$/;

// SemVer 2.0.0 §11: a release outranks its prereleases; identifiers compare one by one,
// numbers numerically and below any text, text in ASCII order; a longer list wins a tie.
function comparePrerelease(a, b) {
  if (a.length === 0 || b.length === 0) return Math.sign(b.length - a.length);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] === undefined) return -1;
    if (b[i] === undefined) return 1;
    if (a[i] === b[i]) continue;
    const an = NUMERIC.test(a[i]);
    const bn = NUMERIC.test(b[i]);
    if (an && bn) return Number(a[i]) < Number(b[i]) ? -1 : 1;
    if (an !== bn) return an ? -1 : 1;
    return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

/** -1, 0 or 1 as version `a` is lower than, equal to or higher than `b` (SemVer precedence). */
export function compare(a, b) {
  const x = parse(a);
  const y = parse(b);
  for (const part of ["major", "minor", "patch"]) {
    if (x[part] !== y[part]) return x[part] < y[part] ? -1 : 1;
  }
  return comparePrerelease(x.prerelease, y.prerelease);
}
