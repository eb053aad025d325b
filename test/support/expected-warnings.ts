/**
 * Every test file's setup: a warning the App logs through a test harness fails the test it
 * happened in unless that test declared it with `expectWarning(/pattern/)`; a declared warning
 * that never came fails it too. Warnings are how the App says something went wrong that it
 * survived (a retried write, a dead letter, a refused dispatch): a test that did not expect
 * one has found a problem, or is missing the assertion that it should have happened.
 */
import { afterEach, beforeEach } from "vitest";

let logged: string[] = [];
let declared: RegExp[] = [];
let allowed: RegExp[] = [];

/** The log the harnesses give the App: warnings are collected, errors go to stderr. */
export const harnessLog = {
  info: (_message: string) => {},
  warn: (message: string) => {
    logged.push(message);
  },
  error: (message: string) => console.error(message),
};

/** Declares that the current test expects the App to warn with a message matching `pattern`. */
export function expectWarning(pattern: RegExp): void {
  declared.push(pattern);
}

/**
 * Tolerates, without requiring, warnings matching `pattern` in the current test: for a shared
 * step that knowingly provokes one (a tick played under a run id GitHub never ran).
 */
export function allowWarning(pattern: RegExp): void {
  allowed.push(pattern);
}

/** What the current test's warnings break of the declarations: "" when everything matched. */
export function undeclaredWarnings(
  warnings: string[],
  patterns: RegExp[],
  tolerated: RegExp[] = [],
): string {
  const known = [...patterns, ...tolerated];
  const stray = warnings.filter((w) => !known.some((p) => p.test(w)));
  const missing = patterns.filter((p) => !warnings.some((w) => p.test(w)));
  return [
    ...stray.map((w) => `the App warned, and the test did not expectWarning() it: ${w}`),
    ...missing.map((p) => `the test expected a warning matching ${p}, and none came`),
  ].join("\n");
}

function reset(): void {
  logged = [];
  declared = [];
  allowed = [];
}

// The benches reuse the harnesses outside vitest, where there are no tests to fail.
if (process.env.VITEST) {
  // Stragglers of an earlier test (a late outbox retry) and of the file's setup are not this test's.
  beforeEach(reset);

  afterEach(() => {
    const problems = undeclaredWarnings(logged, declared, allowed);
    reset();
    if (problems) throw new Error(problems);
  });
}
