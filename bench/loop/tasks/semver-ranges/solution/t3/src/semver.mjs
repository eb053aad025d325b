const IDENTIFIERS = "[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*";
const VERSION = new RegExp(
  `^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-(${IDENTIFIERS}))?(?:\\+(${IDENTIFIERS}))?$`,
);

/**
 * "1.2.3-beta.1+exp.5" → { major: 1, minor: 2, patch: 3, prerelease: ["beta", "1"],
 * build: ["exp", "5"] }. Build metadata never affects precedence (SemVer 2.0.0 §10).
 */
export function parse(text) {
  const m = VERSION.exec(text.trim());
  if (m === null) throw new TypeError(`invalid version: "${text}"`);
  return {
    major: Number(m[1]),
    minor: Number(m[2]),
    patch: Number(m[3]),
    prerelease: m[4] === undefined ? [] : m[4].split("."),
    build: m[5] === undefined ? [] : m[5].split("."),
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

const COMPARATOR = /^(<=|>=|<|>|=)?\s*(\S+)$/;
const TESTS = {
  "<": (c) => c < 0,
  "<=": (c) => c <= 0,
  ">": (c) => c > 0,
  ">=": (c) => c >= 0,
  "=": (c) => c === 0,
};

// "^1.2.3" allows changes that do not modify the left-most non-zero part; "~1.2.3" allows
// patch changes. Both become a ">=low <high" pair, as npm defines them.
function expand(text) {
  const m = /^([~^])\s*(\S+)$/.exec(text);
  if (m === null) return [text];
  const v = parse(m[2]);
  let high;
  if (m[1] === "~") high = `${v.major}.${v.minor + 1}.0`;
  else if (v.major > 0) high = `${v.major + 1}.0.0`;
  else if (v.minor > 0) high = `0.${v.minor + 1}.0`;
  else high = `0.0.${v.patch + 1}`;
  return [`>=${m[2]}`, `<${high}-0`];
}

// One space-separated comparator set: "1.2.3", ">=1.2.0 <2.0.0", "^1.2.0".
function comparators(set) {
  return set
    .replace(/(<=|>=|<|>|=|\^|~)\s+/g, "$1") // ">= 1.2.0" is one comparator
    .trim()
    .split(/\s+/)
    .filter((c) => c !== "")
    .flatMap(expand)
    .map((text) => {
      const m = COMPARATOR.exec(text);
      if (m === null) throw new TypeError(`invalid comparator: "${text}"`);
      parse(m[2]);
      return { op: m[1] ?? "=", version: m[2] };
    });
}

/** Whether `version` is in `range`: comparator sets joined by "||", any one of which matches. */
export function satisfies(version, range) {
  const sets = range.split("||").map(comparators);
  if (sets.some((set) => set.length === 0)) throw new TypeError(`invalid range: "${range}"`);
  return sets.some((set) => set.every(({ op, version: v }) => TESTS[op](compare(version, v))));
}
