import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { getActionInputs } from "../src/get-action-inputs.ts";
import { ActionInputFields } from "../src/inputs.ts";

const reader = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? "";
const API = { "api-url": "https://loopx.example.com" };

const ActionYml = z.object({
  inputs: z.record(
    z.string(),
    z.object({ description: z.string(), default: z.string().optional() }),
  ),
  outputs: z.record(z.string(), z.object({ description: z.string() })),
});
const actionYml = ActionYml.parse(
  parse(readFileSync(resolve(import.meta.dirname, "../../action.yml"), "utf8")),
);

describe("action inputs", () => {
  it("action.yml declares exactly the inputs the zod schema reads", () => {
    const schemaKeys = Object.keys(ActionInputFields.shape).sort();
    expect(Object.keys(actionYml.inputs).sort()).toEqual(schemaKeys);
  });

  it("action.yml defaults agree with the schema's", () => {
    const parsed = getActionInputs(reader({ phase: "agent" }));
    expect(actionYml.inputs["dry-run"]?.default).toBe(String(parsed["dry-run"]));
    // No fixed audience: it follows the api-url, so no default in action.yml either.
    expect(actionYml.inputs.audience?.default).toBeUndefined();
  });

  it("asks for the deployment's own audience: its api-url, unless one is given", () => {
    const own = getActionInputs(reader({ phase: "wake", "api-url": "https://a.example.com/" }));
    expect(own.audience).toBe("https://a.example.com");
    const given = getActionInputs(
      reader({ phase: "wake", "api-url": "https://a.example.com", audience: "custom" }),
    );
    expect(given.audience).toBe("custom");
  });

  it("parses a complete ask input, mapping absent inputs to their defaults", () => {
    const input = getActionInputs(reader({ phase: "ask", goal: "12", ...API, "max-usd": "2.5" }));
    expect(input).toEqual({
      phase: "ask",
      goal: 12,
      ...API,
      "max-usd": 2.5,
      audience: API["api-url"],
      "dry-run": false,
    });
  });

  it("reads harness-env as a list of names", () => {
    const input = getActionInputs(
      reader({ phase: "agent", "harness-env": "ANTHROPIC_API_KEY,\nMY_TOKEN  OTHER" }),
    );
    expect(input["harness-env"]).toEqual(["ANTHROPIC_API_KEY", "MY_TOKEN", "OTHER"]);
  });

  it.each([
    [{ phase: "tick" }, "phase"],
    [{ phase: "ask", ...API }, "needs the goal's issue number"],
    [{ phase: "ask", goal: "0", ...API }, "goal"],
    [{ phase: "wake" }, "needs the LoopX App's URL"],
    [{ phase: "report" }, "api-url"],
    [{ phase: "wake", "api-url": "not a url" }, "api-url"],
    [{ phase: "wake", ...API, "dry-run": "maybe" }, "dry-run"],
    [{ phase: "agent", harness: "gpt-shell" }, "harness"],
    [{ phase: "agent", "harness-env": "NOT-A-NAME" }, "environment variable name"],
    [{ phase: "report", ...API, "agent-result": "exploded" }, "agent-result"],
    [{ phase: "ask", goal: "1", ...API, "max-usd": "-1" }, "max-usd"],
  ])("refuses %j naming what is wrong", (inputs, mention) => {
    expect(() => getActionInputs(reader(inputs))).toThrow(mention);
  });

  it("a dry run needs no api-url", () => {
    expect(getActionInputs(reader({ phase: "wake", "dry-run": "true" })).phase).toBe("wake");
  });
});
