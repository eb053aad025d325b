import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CI_GRACE_MS, checksVerdict, type PrCheck, skipsCi } from "../src/index.ts";
import { T0 } from "./fixtures.ts";

const NAMES = ["ci", "lint", "e2e", "build"] as const;
const STATUSES = [
  "pending",
  "success",
  "failure",
  "neutral",
  "skipped",
  "action_required",
] as const;
const check = fc.record({
  name: fc.constantFrom(...NAMES),
  status: fc.constantFrom(...STATUSES),
  url: fc.constant(null),
  runId: fc.constant(null),
  appId: fc.constant(null),
  failure: fc.constant(null),
});
/** One result per name, as the app reports the latest run of each. */
const checks = fc
  .uniqueArray(check, { selector: (c) => c.name, maxLength: NAMES.length })
  .map((list): PrCheck[] => list);
const facts = fc.record({
  required: fc.option(fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 3 }), { nil: null }),
  checks,
  skipCi: fc.boolean(),
  seenAgo: fc.option(fc.integer({ min: 0, max: 3 * CI_GRACE_MS }), { nil: null }),
});

type Facts = typeof facts extends fc.Arbitrary<infer T> ? T : never;
const verdictOf = (f: Facts) =>
  checksVerdict({
    required: f.required,
    checks: f.checks,
    skipCi: f.skipCi,
    headSeenAt: f.seenAgo === null ? null : new Date(T0.getTime() - f.seenAgo),
    now: T0,
  });

describe("what green means (property)", () => {
  it("green only with a non-empty required set, each one successful on the head, no skip", () => {
    fc.assert(
      fc.property(facts, (f) => {
        const v = verdictOf(f);
        if (v.kind !== "green") return;
        expect(f.required?.length ?? 0).toBeGreaterThan(0);
        expect(f.skipCi).toBe(false);
        for (const name of f.required ?? []) {
          expect(f.checks.find((c) => c.name === name)?.status).toBe("success");
        }
        // Nothing on the head failed or waits for a person, required or not.
        expect(
          f.checks.every((c) => c.status !== "failure" && c.status !== "action_required"),
        ).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("every required check successful, nothing failing or waiting, no skip: green", () => {
    fc.assert(
      fc.property(facts, (f) => {
        const required = f.required ?? [];
        const allPass =
          required.length > 0 &&
          required.every((n) => f.checks.find((c) => c.name === n)?.status === "success");
        const blocked = f.checks.some(
          (c) => c.status === "failure" || c.status === "action_required",
        );
        if (allPass && !blocked && !f.skipCi) expect(verdictOf(f).kind).toBe("green");
      }),
      { numRuns: 2000 },
    );
  });

  it("time never makes a head green: only CI-did-not-run appears with age", () => {
    fc.assert(
      fc.property(facts, (f) => {
        const young = verdictOf({ ...f, seenAgo: 0 });
        const old = verdictOf({ ...f, seenAgo: 3 * CI_GRACE_MS });
        expect(old.kind === "green").toBe(young.kind === "green");
        if (old.kind !== young.kind) {
          expect([young.kind, old.kind]).toEqual(["pending", "ci_did_not_run"]);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("skip markers (GitHub's 'Skipping workflow runs')", () => {
  it("recognizes each marker in any case and the final skip-checks trailer", () => {
    for (const m of ["[skip ci]", "[ci skip]", "[no ci]", "[skip actions]", "[actions skip]"]) {
      expect(skipsCi(`Fix it ${m.toUpperCase()}`)).toBe(true);
    }
    expect(skipsCi("Fix it\n\n\nskip-checks: true")).toBe(true);
    expect(skipsCi("Fix it\n\n\nskip-checks:true\n")).toBe(true);
  });

  it("does not mistake near misses for a skip", () => {
    expect(skipsCi("Fix skip ci handling")).toBe(false);
    expect(skipsCi("skip-checks: true\n\nthen more text")).toBe(false);
    expect(skipsCi("Fix it\n\nskip-checks: false")).toBe(false);
  });
});
