/** The counts a test runner prints at the end of its run, in its own words. */
export interface TestCounts {
  runner: string;
  passed: number;
  failed: number;
  skipped: number;
}

type Reader = (output: string) => TestCounts | null;

/** The last match of a multi-line pattern: a run's own summary comes after anything it echoed. */
function lastMatch(output: string, pattern: RegExp): RegExpExecArray | null {
  const global = new RegExp(
    pattern.source,
    pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`,
  );
  let last: RegExpExecArray | null = null;
  for (let m = global.exec(output); m !== null; m = global.exec(output)) last = m;
  return last;
}

/** "1 failed, 2 passed, 1 skipped" or "1 failed | 1 passed": counts by the runner's words. */
function tally(list: string, words: Record<keyof Omit<TestCounts, "runner">, string[]>) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const part of list.split(/[,|]/)) {
    const m = /^\s*(\d+)\s+(\w+)/.exec(part);
    if (!m) continue;
    const n = Number(m[1]);
    for (const key of ["passed", "failed", "skipped"] as const) {
      if (words[key].includes(m[2] ?? "")) counts[key] += n;
    }
  }
  return counts;
}

/** Vitest: ` Tests  1 failed | 1 passed | 1 skipped (3)`. */
const vitest: Reader = (output) => {
  const m = lastMatch(output, /^\s*Tests\s{2,}((?:\d+ \w+(?: \| )?)+)\s+\(\d+\)\s*$/m);
  if (!m?.[1]) return null;
  const words = { passed: ["passed"], failed: ["failed"], skipped: ["skipped", "todo"] };
  return { runner: "vitest", ...tally(m[1], words) };
};

/** Jest: `Tests:       1 failed, 2 passed, 3 total`. */
const jest: Reader = (output) => {
  const m = lastMatch(output, /^Tests:\s+((?:\d+ \w+, )*)\d+ total\s*$/m);
  if (m?.[1] === undefined) return null;
  const words = { passed: ["passed"], failed: ["failed"], skipped: ["skipped", "todo"] };
  return { runner: "jest", ...tally(m[1], words) };
};

/**
 * TAP as node --test writes it: `# pass 4`, `# fail 0`, `# skipped 0`. Other TAP producers
 * write `# skip`; node's own report is the one that counts `# cancelled`.
 */
const tap: Reader = (output) => {
  const pass = lastMatch(output, /^# pass (\d+)\s*$/m);
  const fail = lastMatch(output, /^# fail (\d+)\s*$/m);
  if (!pass || !fail) return null;
  const skip = lastMatch(output, /^# skip(?:ped)? (\d+)\s*$/m);
  const todo = lastMatch(output, /^# todo (\d+)\s*$/m);
  const cancelled = lastMatch(output, /^# cancelled (\d+)\s*$/m);
  return {
    runner: cancelled ? "node --test" : "TAP",
    passed: Number(pass[1]),
    failed: Number(fail[1]) + Number(cancelled?.[1] ?? 0),
    skipped: Number(skip?.[1] ?? 0) + Number(todo?.[1] ?? 0),
  };
};

/** pytest: `==== 1 failed, 2 passed, 1 skipped in 1.76s ====`, or `2 passed in 0.12s` with -q. */
const pytest: Reader = (output) => {
  const m = lastMatch(
    output,
    /^(?:=+ )?((?:\d+ (?:passed|failed|skipped|errors?|xfailed|xpassed|deselected|warnings?)(?:, )?)+) in [\d.]+s\b.*$/m,
  );
  if (!m?.[1]) return null;
  const words = {
    passed: ["passed", "xpassed"],
    failed: ["failed", "error", "errors"],
    skipped: ["skipped", "xfailed"],
  };
  return { runner: "pytest", ...tally(m[1], words) };
};

/**
 * go test: `--- PASS: TestX (0.00s)` per top-level test with -v. Subtests are indented under
 * their parent, which already counts their outcome, so only unindented lines are counted.
 */
const goTest: Reader = (output) => {
  if (!/^(?:ok|FAIL)\s+\S+\s+(?:[\d.]+s|\(cached\))/m.test(output)) return null;
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const m of output.matchAll(/^--- (PASS|FAIL|SKIP): /gm)) {
    if (m[1] === "PASS") counts.passed += 1;
    else if (m[1] === "FAIL") counts.failed += 1;
    else counts.skipped += 1;
  }
  return counts.passed + counts.failed + counts.skipped > 0
    ? { runner: "go test", ...counts }
    : null;
};

const READERS: Reader[] = [vitest, jest, tap, pytest, goTest];

/** The counts of the run whose output this is, or null when no known runner's summary is in it. */
export function readTestCounts(output: string): TestCounts | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes are what is removed
  const text = output.replace(/\r\n?/g, "\n").replace(/\x1b\[[0-9;]*m/g, "");
  for (const read of READERS) {
    const counts = read(text);
    if (counts) return counts;
  }
  return null;
}
