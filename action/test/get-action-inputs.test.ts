import { describe, expect, it } from "vitest";
import { getActionInputs } from "../src/get-action-inputs.ts";
import { main, PhaseUnavailableError } from "../src/main.ts";

const reader = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? "";

describe("action inputs", () => {
  it("parses a complete ask input, mapping absent inputs to their defaults", () => {
    const input = getActionInputs(reader({ phase: "ask", goal: "12" }));
    expect(input).toEqual({ phase: "ask", goal: 12, audience: "loopx", "dry-run": false });
  });

  it.each([
    [{ phase: "tick" }, "phase"],
    [{ phase: "ask" }, "needs the goal's issue number"],
    [{ phase: "report", goal: "0" }, "goal"],
    [{ phase: "wake", "api-url": "not a url" }, "api-url"],
    [{ phase: "wake", "dry-run": "maybe" }, "dry-run"],
  ])("refuses %j naming what is wrong", (inputs, mention) => {
    expect(() => getActionInputs(reader(inputs))).toThrow(mention);
  });

  it("a real phase is refused in this build rather than faked", async () => {
    const input = getActionInputs(reader({ phase: "wake" }));
    await expect(main({ input })).rejects.toBeInstanceOf(PhaseUnavailableError);
  });

  it("a dry run says nothing was sent and does not claim to run", async () => {
    const input = getActionInputs(reader({ phase: "ask", goal: "3", "dry-run": "true" }));
    const result = await main({ input });
    expect(result.outputs.run).toBe("false");
    expect(result.summary).toContain("goal #3");
  });
});
