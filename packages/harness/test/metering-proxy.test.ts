/**
 * The metering proxy on its own, against the scripted providers: what it forwards, what it
 * counts, and what it refuses (a wrong key, anything past the cap).
 */

import { message, startScriptedAnthropic, startScriptedOpenAI, text } from "@loopx/sandbox/models";
import { afterEach, describe, expect, it } from "vitest";
import { usdFor } from "../src/index.ts";
import { anthropicPrices } from "../src/metering/anthropic-prices.ts";
import { type MeteringProxy, startMeteringProxy } from "../src/metering/metering-proxy.ts";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

const ask = (stream: boolean) =>
  JSON.stringify({
    model: "claude-sonnet-4-5",
    max_tokens: 4_096,
    stream,
    tools: [{ name: "Bash", input_schema: { type: "object" } }],
    messages: [{ role: "user", content: "hi" }],
  });

async function anthropic(capUsd: number) {
  const server = await startScriptedAnthropic({
    turns: [
      { content: [text("one")], usage: { input_tokens: 40_000, output_tokens: 2_000 } },
      { content: [text("two")], usage: { input_tokens: 40_000, output_tokens: 2_000 } },
    ],
    apiKey: "real-key-0123456789",
  });
  const proxy = await startMeteringProxy({
    provider: "anthropic",
    upstream: server.url,
    key: "real-key-0123456789",
    capUsd,
  });
  closers.push(server.close, proxy.close);
  const post = (body: string, key = proxy.capability) =>
    fetch(`${proxy.url}/v1/messages`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-api-key": key,
        "anthropic-version": "2023-06-01",
      },
      body,
    });
  return { server, proxy, post };
}

/** One streamed Responses request through the proxy, with the slice's capability. */
const askResponses = (proxy: MeteringProxy, model: string) =>
  fetch(`${proxy.url}/responses`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${proxy.capability}` },
    body: JSON.stringify({ model, stream: true, input: [{ role: "user", content: "hi" }] }),
  });

describe("metering proxy", () => {
  it("counts usage from streamed and plain replies, at the model's prices", async () => {
    const { proxy, post } = await anthropic(10);
    const streamed = await post(ask(true));
    expect(streamed.status).toBe(200);
    expect(await streamed.text()).toContain("message_delta");
    const plain = await post(ask(false));
    expect(((await plain.json()) as { usage: unknown }).usage).toBeDefined();
    const one = usdFor(anthropicPrices("claude-sonnet-4-5"), { input: 40_000, output: 2_000 });
    expect(proxy.reading()).toMatchObject({ replies: 2, tokens: 84_000, refused: 0 });
    expect(proxy.reading().usd).toBeCloseTo(2 * one, 10);
  });

  it("refuses a request without the slice's key, and every request once the cap is spent", async () => {
    const { server, proxy, post } = await anthropic(0.1);
    const stranger = await post(ask(true), "some-other-key");
    expect(stranger.status).toBe(401);
    expect(await post(ask(true)).then((r) => r.status)).toBe(200);
    const over = await post(ask(true));
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error" },
    });
    expect(proxy.reading().refused).toBe(2);
    // Only the refusal past the cap says the budget stopped the slice; the stranger's does not.
    expect(proxy.reading().overCap).toBe(1);
    // Refused requests never reach the provider.
    expect(server.requests.filter((r) => r.path === "/v1/messages")).toHaveLength(1);
  });

  it("meters an OpenAI Responses provider with the given prices, and refuses past the cap as insufficient_quota", async () => {
    const server = await startScriptedOpenAI({
      turns: [
        {
          output: [message("hi")],
          usage: { input_tokens: 1000, output_tokens: 500, cached_tokens: 200 },
        },
      ],
      apiKey: "sk-openai-real",
    });
    const prices = { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 };
    const proxy = await startMeteringProxy({
      provider: "openai",
      upstream: server.url,
      key: "sk-openai-real",
      capUsd: 0.001,
      prices: { "gpt-scripted": prices },
    });
    closers.push(server.close, proxy.close);
    const post = () => askResponses(proxy, "gpt-scripted");
    expect((await post()).status).toBe(200);
    expect(proxy.reading().tokens).toBe(1500);
    expect(proxy.reading().usd).toBeCloseTo(
      usdFor(prices, { input: 800, cachedInput: 200, output: 500 }),
      10,
    );
    const over = await post();
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ error: { code: "insufficient_quota" } });
  });

  it("a model without a price is charged the whole cap, named once, and nothing more is let through", async () => {
    const server = await startScriptedOpenAI({
      model: "gpt-unlisted",
      turns: [{ output: [message("hi")], usage: { input_tokens: 10, output_tokens: 5 } }],
      apiKey: "sk-openai-real",
    });
    const proxy = await startMeteringProxy({
      provider: "openai",
      upstream: server.url,
      key: "sk-openai-real",
      capUsd: 2,
      prices: { "gpt-5.5": { inputPerMTok: 5, outputPerMTok: 30 } },
    });
    closers.push(server.close, proxy.close);
    const post = () => askResponses(proxy, "gpt-unlisted");
    expect((await post()).status).toBe(200);
    expect(proxy.reading()).toMatchObject({ usd: 2, tokens: 15, unpriced: ["gpt-unlisted"] });
    expect((await post()).status).toBe(429);
    expect(proxy.reading().unpriced).toEqual(["gpt-unlisted"]);
  });
});
