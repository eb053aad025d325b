import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { parseConfig } from "../../packages/github/src/index.ts";

/**
 * Fuzzed `.github/loopx.yml` through parseConfig: any value YAML can produce is either a
 * complete config or refused with every problem at a path — never a crash, never defaults
 * quietly standing in for a file someone wrote.
 */
const KEYS = ["label", "tickWorkflow", "harness", "validationCommand", "budgets", "owners"];
const nearlyConfig = fc.record(
  {
    label: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    tickWorkflow: fc.oneof(fc.string(), fc.constant("../../evil.yml")),
    harness: fc.record({ default: fc.string(), allowedTools: fc.anything() }, { requiredKeys: [] }),
    budgets: fc.record(
      {
        goal: fc.dictionary(
          fc.constantFrom("usd", "tokens", "ticks", "runnerMinutes", "lots"),
          fc.oneof(fc.double(), fc.integer(), fc.string()),
        ),
        tick: fc.anything(),
      },
      { requiredKeys: [] },
    ),
    owners: fc.array(fc.oneof(fc.string(), fc.constant("@alice"), fc.integer())),
    gates: fc.array(fc.anything(), { maxLength: 3 }),
    comments: fc.string(),
    lable: fc.string(),
  },
  { requiredKeys: [] },
);

function checkResult(value: unknown): void {
  const r = parseConfig(value);
  if (r.ok) return;
  expect(r.errors.length).toBeGreaterThan(0);
  for (const e of r.errors) {
    expect(e.path).not.toBe("");
    expect(e.message.trim()).not.toBe("");
  }
}

describe("hostile: fuzzed .github/loopx.yml", () => {
  it("any YAML-shaped value is a config or a list of errors with paths", () => {
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), nearlyConfig, fc.anything()), checkResult), {
      numRuns: 2000,
    });
  });

  it("any YAML text that parses is judged the same way", () => {
    const line = fc
      .tuple(fc.constantFrom(...KEYS, "gates", "lable"), fc.string({ maxLength: 20 }))
      .map(([k, v]) => `${k}: ${v}`);
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), (lines) => {
        let value: unknown;
        try {
          value = parseYaml(lines.join("\n"), { logLevel: "error" });
        } catch {
          return; // Not YAML at all: the loader reports that before parseConfig is reached.
        }
        checkResult(value);
      }),
      { numRuns: 1000 },
    );
  });

  it("a typo is refused at its path, not dropped in favour of defaults", () => {
    const r = parseConfig({ lable: "agent", budgets: { goal: { usd: -1 } } });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors.map((e) => e.path).sort()).toEqual(["(root)", "budgets.goal.usd"]);
    }
  });
});
