import { describe, expect, it } from "vitest";
import {
  allowWarning,
  expectWarning,
  harnessLog,
  undeclaredWarnings,
} from "./expected-warnings.ts";

describe("expected warnings", () => {
  it("names each stray warning and each declared one that never came", () => {
    const retry = "outbox reply:1 for goal g: will retry: 502";
    expect(undeclaredWarnings([retry], [/will retry/])).toBe("");
    expect(undeclaredWarnings([retry], [])).toBe(
      `the App warned, and the test did not expectWarning() it: ${retry}`,
    );
    expect(undeclaredWarnings([], [/dead letter/])).toBe(
      "the test expected a warning matching /dead letter/, and none came",
    );
  });

  it("an allowed warning passes, and so does its absence", () => {
    allowWarning(/runner minutes/);
    allowWarning(/never logged/);
    harnessLog.warn("runner minutes of run 7000 (charging the tick's cap): 404");
  });

  it("a declared warning passes", () => {
    expectWarning(/will retry/);
    harnessLog.warn("outbox reply:1 for goal g: will retry: 502");
  });

  it.fails("a warning the test did not declare fails the test", () => {
    harnessLog.warn("outbox reply:1 for goal g: dead letter: 422");
  });

  it.fails("a declared warning that never came fails the test", () => {
    expectWarning(/dead letter/);
  });
});
