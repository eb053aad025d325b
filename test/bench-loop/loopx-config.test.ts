/**
 * The `.github/loopx.yml` the bench installs, read by LoopX's own config parser: LoopX as
 * shipped gets the merge gate and the task's path rule; LoopX without its gates gets none,
 * not even the merge gate LoopX opens by default.
 */
import { parseConfig } from "@loopx/github";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { loopxConfig } from "../../bench/loop/arms/loopx/loopx-config.ts";

const read = (yaml: string) => {
  const parsed = parseConfig(parseYaml(yaml));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.config;
};

describe("the bench's loopx.yml", () => {
  it("gates merges and the task's paths, with the budget the owners approved", () => {
    const config = read(loopxConfig([".github/**"], 3));
    expect(config.gates).toEqual([
      { when: "merge", scopes: ["merge"] },
      { paths: [".github/**"], scopes: ["write:.github"] },
    ]);
    expect(config.budgets.goal.usd).toBe(3);
  });

  it("without gates, turns off the merge gate LoopX opens when loopx.yml names none", () => {
    const defaults = read("harness:\n  default: shell\n");
    expect(defaults.gates.length).toBeGreaterThan(0);
    const config = read(loopxConfig(null, 3));
    expect(config.gates).toEqual([]);
    expect(config.budgets.goal.usd).toBe(3);
    expect(config.validationCommand).toBe("npm test");
  });
});
