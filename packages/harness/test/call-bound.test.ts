/**
 * On the last of a goal's budget no model call may start that could cross it: its output
 * cap is lowered to what is left beside its input's worst cost (a token per byte at the
 * dearest input rate), and what its body cannot bound is refused.
 */
import { describe, expect, it } from "vitest";
import { anthropicPrices } from "../src/metering/anthropic-prices.ts";
import { boundCall, MIN_REPLY_TOKENS } from "../src/metering/call-bound.ts";
import { priceFor } from "../src/metering/openai-prices.ts";
import type { PriceTable } from "../src/price-table.ts";

const SONNET = anthropicPrices("claude-sonnet-4-5");
const dearestInput = (p: PriceTable) =>
  Math.max(p.inputPerMTok, p.cachedInputPerMTok ?? 0, p.cacheWritePerMTok ?? 0) / 1e6;
const outRate = (p: PriceTable) => p.outputPerMTok / 1e6;

function anthropic(
  request: Record<string, unknown>,
  roomUsd: number,
  opts: { path?: string; inputTokens?: number } = {},
) {
  const body = Buffer.from(JSON.stringify(request));
  const bound = boundCall({
    provider: "anthropic",
    path: opts.path ?? "/v1/messages",
    body,
    pricesOf: anthropicPrices,
    inputTokens: opts.inputTokens ?? null,
    roomUsd,
  });
  return { body, bound };
}

const message = (extra: Record<string, unknown> = {}) => ({
  model: "claude-sonnet-4-5",
  max_tokens: 32_000,
  messages: [{ role: "user", content: [{ type: "text", text: "Fix the parser." }] }],
  tools: [{ name: "Bash", input_schema: { type: "object" } }],
  ...extra,
});

describe("bounding a call on the last of a budget", () => {
  it("lowers the output cap to what is left beside the input's worst cost", () => {
    const { body, bound } = anthropic(message(), 0.05);
    if (!bound.ok) throw new Error(bound.reason);
    const inputUsd = body.length * dearestInput(SONNET);
    const want = Math.floor((0.05 - inputUsd) / outRate(SONNET));
    const sent = JSON.parse(bound.body.toString("utf8")) as Record<string, unknown>;
    expect(sent.max_tokens).toBe(want);
    expect(sent.messages).toEqual(message().messages);
    expect(bound.worstUsd).toBeCloseTo(inputUsd + want * outRate(SONNET), 12);
    expect(bound.worstUsd).toBeLessThanOrEqual(0.05);
  });

  it("bounds the input by the provider's count, with its margin, where the provider counts", () => {
    const image = {
      messages: [
        {
          role: "user",
          content: [
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
          ],
        },
      ],
    };
    // Bytes cannot bound an image's tokens; the provider's count can.
    expect(anthropic(message(image), 1).bound).toMatchObject({ ok: false });
    const { bound } = anthropic(message(image), 1, { inputTokens: 20_000 });
    if (!bound.ok) throw new Error(bound.reason);
    const inputUsd = (Math.ceil(20_000 * 1.05) + 256) * dearestInput(SONNET);
    const sent = JSON.parse(bound.body.toString("utf8")) as { max_tokens: number };
    expect(sent.max_tokens).toBe(Math.min(32_000, Math.floor((1 - inputUsd) / outRate(SONNET))));
    expect(bound.worstUsd).toBeCloseTo(inputUsd + sent.max_tokens * outRate(SONNET), 12);
    // A server tool bills what it fetches: no count says how much.
    const search = anthropic(
      message({ tools: [{ type: "web_search_20250305", name: "web_search" }] }),
      100,
      {
        inputTokens: 10,
      },
    );
    expect(search.bound).toMatchObject({ ok: false });
  });

  it("leaves a call that fits as it is, body and all", () => {
    const { body, bound } = anthropic(message({ max_tokens: 2_000 }), 5);
    expect(bound).toMatchObject({ ok: true });
    if (bound.ok) expect(bound.body).toBe(body);
  });

  it("refuses a call whose shortest worthwhile reply does not fit", () => {
    const room = MIN_REPLY_TOKENS * outRate(SONNET) - 1e-6;
    const { bound } = anthropic(message(), room);
    expect(bound).toMatchObject({ ok: false });
    if (!bound.ok)
      expect(bound.reason).toMatch(/even a short reply could cost \$0\.0\d+ and \$0\.0\d+ is left/);
    // A call that asks for fewer tokens than that only needs room for what it asks.
    const small = anthropic(message({ max_tokens: 100 }), 100 * outRate(SONNET) + 0.01);
    expect(small.bound.ok).toBe(true);
  });

  it("lowers a thinking budget below the lowered cap, or refuses when it cannot", () => {
    const thinking = { type: "enabled", budget_tokens: 16_000 };
    const roomFor = (tokens: number, body: number) =>
      body * dearestInput(SONNET) + tokens * outRate(SONNET);
    const probe = anthropic(message({ thinking }), 1).body.length;
    const fits = anthropic(message({ thinking }), roomFor(5_000, probe) + 1e-9);
    if (!fits.bound.ok) throw new Error(fits.bound.reason);
    const sent = JSON.parse(fits.bound.body.toString("utf8")) as {
      max_tokens: number;
      thinking: { budget_tokens: number };
    };
    expect(sent.thinking.budget_tokens).toBe(sent.max_tokens - 1);
    const tight = anthropic(message({ thinking }), roomFor(1_024, probe) + 1e-9);
    expect(tight.bound).toMatchObject({ ok: false });
  });

  it.each([
    [
      "an image",
      {
        messages: [
          {
            role: "user",
            content: [
              { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
            ],
          },
        ],
      },
      /image content/,
    ],
    [
      "an image in a tool result",
      {
        messages: [
          {
            role: "user",
            content: [
              {
                type: "tool_result",
                tool_use_id: "t",
                content: [{ type: "image", source: { type: "url", url: "https://x" } }],
              },
            ],
          },
        ],
      },
      /image content/,
    ],
    [
      "a PDF",
      {
        messages: [
          {
            role: "user",
            content: [{ type: "document", source: { type: "url", url: "https://x" } }],
          },
        ],
      },
      /document content/,
    ],
    [
      "a server tool",
      { tools: [{ type: "web_search_20250305", name: "web_search" }] },
      /server tool `web_search_20250305`/,
    ],
    [
      "an MCP server",
      { mcp_servers: [{ type: "url", url: "https://x", name: "x" }] },
      /`mcp_servers`/,
    ],
  ])("refuses %s, whose tokens its bytes do not bound", (_what, extra, why) => {
    const { bound } = anthropic(message(extra), 100);
    expect(bound).toMatchObject({ ok: false });
    if (!bound.ok) expect(bound.reason).toMatch(why);
  });

  it("reads tool arguments as the agent's text, not as media", () => {
    const { bound } = anthropic(
      message({
        messages: [
          {
            role: "assistant",
            content: [
              {
                type: "tool_use",
                id: "t",
                name: "Write",
                input: { type: "image", source: { type: "url" } },
              },
            ],
          },
        ],
      }),
      100,
    );
    expect(bound.ok).toBe(true);
  });

  it("refuses what is not a generation call, and bodies it cannot read", () => {
    expect(anthropic(message(), 100, { path: "/v1/messages/batches" }).bound).toMatchObject({
      ok: false,
    });
    const raw = boundCall({
      provider: "anthropic",
      path: "/v1/messages",
      body: Buffer.from("not json"),
      pricesOf: anthropicPrices,
      inputTokens: null,
      roomUsd: 100,
    });
    expect(raw).toMatchObject({ ok: false, reason: expect.stringMatching(/not JSON/) });
  });

  it("sets an output cap on an OpenAI call that has none, and refuses what it cannot price or see", () => {
    const table = { "gpt-5.4": { inputPerMTok: 2.5, cachedInputPerMTok: 0.25, outputPerMTok: 15 } };
    const pricesOf = (model: string | null) => priceFor(table, model);
    const call = (request: Record<string, unknown>, path = "/responses") =>
      boundCall({
        provider: "openai",
        path,
        body: Buffer.from(JSON.stringify(request)),
        pricesOf,
        inputTokens: null,
        roomUsd: 0.1,
      });
    const plain = call({ model: "gpt-5.4", input: [{ role: "user", content: "hi" }] });
    if (!plain.ok) throw new Error(plain.reason);
    const sent = JSON.parse(plain.body.toString("utf8")) as { max_output_tokens: number };
    expect(sent.max_output_tokens).toBeGreaterThan(MIN_REPLY_TOKENS);
    expect(plain.worstUsd).toBeLessThanOrEqual(0.1);
    expect(call({ model: "gpt-9", input: "hi" })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/gpt-9 has no price/),
    });
    expect(call({ model: "gpt-5.4", input: "hi", previous_response_id: "resp_1" })).toMatchObject({
      ok: false,
    });
    expect(call({ model: "gpt-5.4", input: "hi", tools: [{ type: "web_search" }] })).toMatchObject({
      ok: false,
    });
    expect(call({ model: "gpt-5.4", messages: [], n: 3 }, "/chat/completions")).toMatchObject({
      ok: false,
    });
    expect(
      call({
        model: "gpt-5.4",
        input: [{ role: "user", content: [{ type: "input_image", image_url: "https://x" }] }],
      }),
    ).toMatchObject({ ok: false });
  });
});
