import { describe, expect, it } from "vitest";
import { refuseDangerousArgs } from "../src/adapters/refuse-dangerous-args.ts";
import { ModelPrices, OPENAI_PRICES, priceFor } from "../src/index.ts";

describe("OpenAI price table", () => {
  it("is keyed by exact model id; a dated snapshot is priced as its model; others have none", () => {
    expect(ModelPrices.safeParse(OPENAI_PRICES).success).toBe(true);
    expect(priceFor(OPENAI_PRICES, "gpt-5.5")).toEqual(OPENAI_PRICES["gpt-5.5"]);
    expect(priceFor(OPENAI_PRICES, "gpt-5.5-2026-04-23")).toEqual(OPENAI_PRICES["gpt-5.5"]);
    // No prefix matching: a sibling model is not priced as its family's first member.
    expect(priceFor(OPENAI_PRICES, "gpt-5.5-pro")).toBeNull();
    expect(priceFor(OPENAI_PRICES, "gpt-5")).toBeNull();
    expect(priceFor(OPENAI_PRICES, null)).toBeNull();
  });

  it("refuses a flat table and negative prices, saying where", () => {
    const flat = ModelPrices.safeParse({ inputPerMTok: 1, outputPerMTok: 2 });
    expect(flat.success).toBe(false);
    const negative = ModelPrices.safeParse({ "gpt-x": { inputPerMTok: -1, outputPerMTok: 2 } });
    expect(negative.error?.issues[0]?.path).toEqual(["gpt-x", "inputPerMTok"]);
  });
});

describe("refuseDangerousArgs", () => {
  it("refuses bypasses for every harness", () => {
    expect(() => refuseDangerousArgs("claude-code", ["--dangerously-skip-permissions"])).toThrow(
      /refusing --dangerously-skip-permissions/,
    );
    expect(() =>
      refuseDangerousArgs("codex", ["--dangerously-bypass-approvals-and-sandbox"]),
    ).toThrow(/refusing/);
  });

  it("refuses a user's codex sandbox or approval settings, by flag or by config key", () => {
    for (const args of [
      ["--sandbox", "danger-full-access"],
      ["-s", "workspace-write"],
      ["--sandbox=read-only"],
      ["--full-auto"],
      ["--yolo"],
      ["-c", "sandbox_mode=workspace-write"],
      ["--config", 'approval_policy="never"'],
    ]) {
      expect(() => refuseDangerousArgs("codex", args), args.join(" ")).toThrow(
        /LoopX sets codex's sandbox itself/,
      );
    }
  });

  it("lets ordinary arguments through", () => {
    expect(() => refuseDangerousArgs("codex", ["-c", "model_reasoning_effort=high"])).not.toThrow();
    expect(() => refuseDangerousArgs("claude-code", ["--verbose"])).not.toThrow();
  });
});
