import { OPENAI_PRICES } from "@loopx/harness";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ActionInput } from "../src/inputs.ts";
import { warnUnpriced } from "../src/meter-harness.ts";
import { codexPrices, selectHarness } from "../src/select-harness.ts";

const input = (over: Record<string, string> = {}) =>
  ActionInput.parse({ phase: "agent", harness: "codex", ...over });

afterEach(() => vi.restoreAllMocks());

describe("codex prices", () => {
  it("ships a table by model id: codex needs no price input", () => {
    const selected = selectHarness("codex", input(), {});
    expect(selected.prices).toEqual(OPENAI_PRICES);
    expect(Object.keys(selected.prices ?? {})).toContain("gpt-5.5");
  });

  it("an override is laid over the shipped table, model by model", () => {
    const prices = codexPrices(
      input({
        "codex-prices": JSON.stringify({
          "gpt-5.5": { inputPerMTok: 1, outputPerMTok: 2 },
          "my-gateway-model": { inputPerMTok: 3, outputPerMTok: 4 },
        }),
      }),
    );
    expect(prices["gpt-5.5"]).toEqual({ inputPerMTok: 1, outputPerMTok: 2 });
    expect(prices["my-gateway-model"]).toEqual({ inputPerMTok: 3, outputPerMTok: 4 });
    expect(prices["gpt-5.4"]).toEqual(OPENAI_PRICES["gpt-5.4"]);
  });

  it("refuses what is not a table by model id, saying what would work", () => {
    expect(() => codexPrices(input({ "codex-prices": "{gpt" }))).toThrow(
      /`codex-prices` is not JSON: give a table keyed by model id.*"gpt-5.5"/,
    );
    // The old flat shape: one table for every model.
    expect(() =>
      codexPrices(input({ "codex-prices": '{"inputPerMTok":1.25,"outputPerMTok":10}' })),
    ).toThrow(/`codex-prices` is invalid \(it is a table keyed by model id/);
    expect(() =>
      codexPrices(input({ "codex-prices": '{"gpt-x":{"inputPerMTok":-1,"outputPerMTok":1}}' })),
    ).toThrow(/gpt-x/);
    // Refused before anything runs: selecting the harness fails.
    expect(() => selectHarness("codex", input({ "codex-prices": "[]" }), {})).toThrow(
      /codex-prices/,
    );
  });

  it("an unpriced model is named in a warning that says how to add its price", () => {
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    warnUnpriced(["gpt-unlisted"], 2);
    const written = out.mock.calls.map((c) => String(c[0])).join("");
    out.mockRestore();
    expect(written).toContain("::warning::");
    expect(written).toContain('codex used model "gpt-unlisted"');
    expect(written).toContain("charged its cap ($2)");
    expect(written).toContain("LOOPX_CODEX_PRICES");
    expect(written).toContain('{"gpt-unlisted":{"inputPerMTok"');
  });

  it("nothing unpriced, nothing said", () => {
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    warnUnpriced([], 2);
    expect(out).not.toHaveBeenCalled();
  });
});
