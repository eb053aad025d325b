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

/** -1, 0 or 1 as version `a` is lower than, equal to or higher than `b`. */
export function compare(a, b) {
  const x = parse(a);
  const y = parse(b);
  for (const part of ["major", "minor", "patch"]) {
    if (x[part] !== y[part]) return x[part] < y[part] ? -1 : 1;
  }
  return 0;
}
