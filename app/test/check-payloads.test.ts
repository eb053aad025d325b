import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CheckRunChanged, CheckSuiteChanged } from "../src/pulls/pull-payloads.ts";

const Examples = z.array(
  z.object({
    name: z.string(),
    examples: z.array(z.record(z.string(), z.unknown())),
  }),
);
const examples = Examples.parse(createRequire(import.meta.url)("@octokit/webhooks-examples"));
const INSTALLATION = { id: 1, node_id: "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==" };

/** GitHub's own examples of an event, as an App receives them (with its installation). */
const of = (name: string) =>
  (examples.find((e) => e.name === name)?.examples ?? []).map((p) => ({
    installation: INSTALLATION,
    ...p,
  }));

describe("check payloads: GitHub's own examples parse", () => {
  it("every check_suite example, whether or not its app carries a slug", () => {
    const suites = of("check_suite");
    expect(suites.length).toBeGreaterThan(0);
    for (const body of suites) expect(CheckSuiteChanged.safeParse(body).error).toBeUndefined();
    // At least one of them has an app without a slug: GitHub's schema makes it optional.
    expect(suites.some((b) => !CheckSuiteChanged.parse(b).check_suite.app?.slug)).toBe(true);
  });

  it("every check_run example", () => {
    const runs = of("check_run");
    expect(runs.length).toBeGreaterThan(0);
    for (const body of runs) expect(CheckRunChanged.safeParse(body).error).toBeUndefined();
  });
});
