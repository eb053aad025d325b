import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  CONFIG_SCHEMA_FILE,
  configJsonSchema,
  digestEveryMs,
  LoopxConfig,
  parseConfig,
  remindDelayMs,
} from "../src/index.ts";

const DEFAULTS = {
  label: "loopx",
  tickWorkflow: "loopx-tick.yml",
  harness: { default: "claude-code", allowedTools: [] },
  validationCommand: null,
  budgets: {
    goal: { usd: 25, tokens: 10_000_000, runnerMinutes: 600, ticks: 100 },
    tick: { usd: 2, tokens: 1_000_000, runnerMinutes: 30 },
  },
  parallel: 1,
  owners: [],
  checks: [],
  repair: { attempts: 3 },
  gates: [
    { when: "merge", scopes: ["merge"] },
    { paths: [".github/**"], scopes: ["write:.github"] },
  ],
  quota: { windowHours: 24, slotMinutes: 30, compute: 1 },
  comments: "quiet",
  notify: { remind: "24h", digest: "24h" },
  todos: "checklist",
};

describe("parseConfig: repair", () => {
  it.each([
    [{ repair: { attempts: 5 } }, 5],
    [{ repair: { attempts: 0 } }, 0],
    [{ repair: {} }, 3],
  ])("%j gives %i attempts", (input, attempts) => {
    const parsed = parseConfig(input);
    expect(parsed.ok && parsed.config.repair).toEqual({ attempts });
  });

  it.each([
    { repair: { attempts: -1 } },
    { repair: { attempts: 1.5 } },
    { repair: { attempts: 21 } },
    { repair: { attempts: "3" } },
    { repair: { tries: 3 } },
  ])("refuses %j", (input) => {
    expect(parseConfig(input).ok).toBe(false);
  });
});

describe("parseConfig", () => {
  it.each([
    ["an absent file (null)", null],
    ["an absent file (undefined)", undefined],
    ["an empty mapping", {}],
  ])("%s gives the defaults", (_name, input) => {
    expect(parseConfig(input)).toEqual({ ok: true, config: DEFAULTS });
  });

  it("takes a plan policy, and leaves it unset (the goal's author decides) when absent", () => {
    expect(parseConfig({ plan: "approve" })).toEqual({
      ok: true,
      config: { ...DEFAULTS, plan: "approve" },
    });
    expect(parseConfig({ plan: "auto" })).toMatchObject({ ok: true, config: { plan: "auto" } });
    const unset = parseConfig({});
    expect(unset.ok && "plan" in unset.config).toBe(false);
  });

  it("takes parallel from 1 to 8; anything else is refused with its path", () => {
    expect(parseConfig({ parallel: 3 })).toMatchObject({ ok: true, config: { parallel: 3 } });
    for (const bad of [0, 9, 1.5, "2"]) {
      expect(parseConfig({ parallel: bad })).toMatchObject({
        ok: false,
        errors: [{ path: "parallel" }],
      });
    }
  });

  it("takes required checks; an empty name is refused with its path", () => {
    const result = parseConfig({ checks: ["ci", "e2e"] });
    expect(result.ok && result.config.checks).toEqual(["ci", "e2e"]);
    expect(parseConfig({ checks: [""] })).toMatchObject({
      ok: false,
      errors: [{ path: "checks.0" }],
    });
  });

  it("merges a partial config with the defaults, nested budgets included", () => {
    const result = parseConfig({
      label: "agent",
      harness: { default: "codex" },
      budgets: { goal: { usd: 5 } },
      owners: ["alice", "bob"],
      comments: "quiet",
    });
    expect(result).toEqual({
      ok: true,
      config: {
        ...DEFAULTS,
        label: "agent",
        harness: { default: "codex", allowedTools: [] },
        budgets: { ...DEFAULTS.budgets, goal: { ...DEFAULTS.budgets.goal, usd: 5 } },
        owners: ["alice", "bob"],
        comments: "quiet",
      },
    });
  });

  it("takes where todos live; anything but checklist or sub-issues is refused with its path", () => {
    const result = parseConfig({ todos: "sub-issues" });
    expect(result.ok && result.config.todos).toBe("sub-issues");
    const bad = parseConfig({ todos: "issues" });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.errors.map((e) => e.path)).toEqual(["todos"]);
  });

  it("takes the duty cycle, keeping the defaults it does not name", () => {
    const result = parseConfig({ quota: { compute: 0 } });
    expect(result.ok && result.config.quota).toEqual({
      windowHours: 24,
      slotMinutes: 30,
      compute: 0,
    });
  });

  it("replaces the default gate rules when gates are given", () => {
    const result = parseConfig({
      gates: [{ paths: ["migrations/**"], scopes: ["write:migrations"] }],
    });
    expect(result.ok && result.config.gates).toEqual([
      { paths: ["migrations/**"], scopes: ["write:migrations"] },
    ]);
  });

  it.each([
    ["a typo'd key", { lable: "x" }, "(root)", /lable/],
    ["a negative USD ceiling", { budgets: { goal: { usd: -1 } } }, "budgets.goal.usd", /0/],
    ["fractional ticks", { budgets: { goal: { ticks: 1.5 } } }, "budgets.goal.ticks", /int/i],
    ["an unknown harness", { harness: { default: "gpt" } }, "harness.default", /claude-code/],
    [
      "a workflow path instead of a file",
      { tickWorkflow: ".github/workflows/t.yml" },
      "tickWorkflow",
      /workflow file name/,
    ],
    ["a bad owner login", { owners: ["not a login"] }, "owners.0", /login/],
    [
      "a gate rule without scopes",
      { gates: [{ when: "merge" }] },
      "gates.0",
      /when: merge \| open_pr, scopes/,
    ],
    [
      "a gate before an action LoopX does not take",
      { gates: [{ when: "deploy", scopes: ["deploy"] }] },
      "gates.0",
      /when: merge \| open_pr, scopes/,
    ],
    [
      "a gate rule with both forms",
      { gates: [{ when: "merge", paths: ["a"], scopes: ["merge"] }] },
      "gates.0",
      /paths/,
    ],
    [
      "a gate rule with a bad scope",
      { gates: [{ when: "merge", scopes: ["Merge Now"] }] },
      "gates.0.scopes.0",
      /lowercase words/,
    ],
    ["an unknown comment mode", { comments: "loud" }, "comments", /sticky/],
    ["an unknown plan policy", { plan: "manual" }, "plan", /approve/],
    ["a compute share over 1", { quota: { compute: 1.5 } }, "quota.compute", /1/],
    ["an unknown quota key", { quota: { slots: 4 } }, "quota", /slots/],
    ["an empty label", { label: "  " }, "label", /./],
    ["a string instead of a mapping", "loopx", "(root)", /object/],
    ["a list instead of a mapping", [], "(root)", /object/],
  ])("rejects %s with its path", (_name, input, path, message) => {
    const result = parseConfig(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const error = result.errors.find((e) => e.path === path);
    expect(error, JSON.stringify(result.errors)).toBeDefined();
    expect(error?.message).toMatch(message);
  });

  it("reports every problem, not only the first, and never falls back to defaults", () => {
    const result = parseConfig({ label: "", comments: "loud", budgets: { tick: { usd: "2" } } });
    expect(result).toMatchObject({ ok: false });
    if (result.ok) return;
    expect(result.errors.map((e) => e.path).sort()).toEqual([
      "budgets.tick.usd",
      "comments",
      "label",
    ]);
    expect(result).not.toHaveProperty("config");
  });
});

describe("notify.remind", () => {
  it("defaults to one reminder after 24 hours", () => {
    const result = parseConfig({});
    if (!result.ok) throw new Error("the empty config is valid");
    expect(result.config.notify.remind).toBe("24h");
    expect(remindDelayMs(result.config)).toBe(24 * 3_600_000);
  });

  it("takes minutes, hours, days or never", () => {
    const delay = (remind: string) => {
      const result = parseConfig({ notify: { remind } });
      if (!result.ok) throw new Error(`${remind} should be valid`);
      return remindDelayMs(result.config);
    };
    expect(delay("90m")).toBe(90 * 60_000);
    expect(delay("2d")).toBe(2 * 86_400_000);
    expect(delay("never")).toBeNull();
  });

  it("refuses a delay it cannot read, saying what would work", () => {
    for (const remind of ["24", "0h", "1w", "soon", "-1h"]) {
      const result = parseConfig({ notify: { remind } });
      expect(result.ok, remind).toBe(false);
      if (result.ok) continue;
      expect(result.errors.map((e) => e.path)).toEqual(["notify.remind"]);
      expect(result.errors[0]?.message).toContain('"24h"');
    }
    const extra = parseConfig({ notify: { remind: "24h", every: "1h" } });
    expect(extra.ok).toBe(false);
  });
});

describe("notify.digest", () => {
  it("defaults to a daily digest; takes hours, days or never", () => {
    const every = (digest?: string) => {
      const result = parseConfig(digest === undefined ? {} : { notify: { digest } });
      if (!result.ok) throw new Error(`${digest} should be valid`);
      return digestEveryMs(result.config);
    };
    expect(every()).toBe(24 * 3_600_000);
    expect(every("6h")).toBe(6 * 3_600_000);
    expect(every("7d")).toBe(7 * 86_400_000);
    expect(every("never")).toBeNull();
  });

  it("refuses minutes (a digest that often is noise) and what it cannot read, saying what works", () => {
    for (const digest of ["90m", "24", "0h", "1w", "daily"]) {
      const result = parseConfig({ notify: { digest } });
      expect(result.ok, digest).toBe(false);
      if (result.ok) continue;
      expect(result.errors.map((e) => e.path)).toEqual(["notify.digest"]);
      expect(result.errors[0]?.message).toContain('"24h" or "7d", or "never"');
    }
  });
});

describe("the committed JSON Schema", () => {
  it("matches the zod schema (run `npx tsx packages/github/scripts/config-json-schema.ts` if not)", () => {
    const committed = readFileSync(new URL(`../${CONFIG_SCHEMA_FILE}`, import.meta.url), "utf8");
    expect(
      committed === configJsonSchema(),
      "packages/github/loopx-config.schema.json is stale: run `npx tsx packages/github/scripts/config-json-schema.ts` and commit it",
    ).toBe(true);
  });

  it("documents every field and forbids unknown keys", () => {
    const schema: unknown = JSON.parse(configJsonSchema());
    expect(schema).toMatchObject({
      type: "object",
      additionalProperties: false,
      properties: {
        label: { default: "loopx", description: expect.any(String) },
        comments: { enum: ["sticky", "quiet"] },
        budgets: { properties: { goal: { additionalProperties: false } } },
      },
    });
    for (const key of Object.keys(LoopxConfig.shape)) {
      expect(JSON.stringify(schema)).toContain(`"${key}"`);
    }
  });
});
