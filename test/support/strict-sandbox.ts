/**
 * Every test file's setup: a call to a GitHub endpoint the sandbox does not implement fails
 * the test that made it, with the route to add (packages/sandbox/README.md, "Adding a route").
 */
import { afterEach, beforeEach } from "vitest";
import { takeUnsupported } from "../../packages/sandbox/src/index.ts";

beforeEach(() => {
  // Stragglers of an earlier test (a late outbox retry) are not this test's.
  takeUnsupported();
});

afterEach(() => {
  const calls = takeUnsupported();
  if (calls.length === 0) return;
  const list = [...new Set(calls.map((c) => `${c.method} ${c.path}`))].join(", ");
  throw new Error(
    `This test called GitHub endpoints the sandbox does not implement: ${list}. Add them to packages/sandbox (with their fidelity test), or stop calling them.`,
  );
});
