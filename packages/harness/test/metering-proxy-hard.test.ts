/**
 * The metering proxy on a hard ceiling (the last of a goal's budget), against a scripted
 * provider that, like a real one, never generates past a request's output cap: a slice's
 * spend stops short of the ceiling however its calls are shaped or timed, where a tick cap
 * still counts the reply in flight when it is reached.
 */
import { startScriptedAnthropic, text } from "@loopx/sandbox/models";
import { afterEach, describe, expect, it } from "vitest";
import { usdFor } from "../src/index.ts";
import { anthropicPrices } from "../src/metering/anthropic-prices.ts";
import { startMeteringProxy } from "../src/metering/metering-proxy.ts";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

const KEY = "real-key-0123456789";
const SONNET = anthropicPrices("claude-sonnet-4-5");

const request = (maxTokens: number) =>
  JSON.stringify({
    model: "claude-sonnet-4-5",
    max_tokens: maxTokens,
    stream: true,
    tools: [{ name: "Bash", input_schema: { type: "object" } }],
    messages: [{ role: "user", content: "Fix the parser." }],
  });

/** A provider whose every turn wants 5,000 output tokens, the first held `stallMs` first. */
async function setUp(capUsd: number, hard: boolean, stallMs = 0) {
  const turn = { content: [text("working")], usage: { input_tokens: 100, output_tokens: 5_000 } };
  const server = await startScriptedAnthropic({
    turns: [{ ...turn, ...(stallMs ? { stallMs } : {}) }, turn, turn],
    apiKey: KEY,
  });
  const proxy = await startMeteringProxy({
    provider: "anthropic",
    upstream: server.url,
    key: KEY,
    capUsd,
    hard,
  });
  closers.push(server.close, proxy.close);
  const post = (maxTokens = 32_000) =>
    fetch(`${proxy.url}/v1/messages`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-api-key": proxy.capability,
        "anthropic-version": "2023-06-01",
      },
      body: request(maxTokens),
    }).then(async (r) => ({ status: r.status, text: await r.text() }));
  const sentCaps = () =>
    server.requests
      .filter((r) => r.path === "/v1/messages")
      .map((r) => (r.body as { max_tokens: number }).max_tokens);
  return { proxy, post, sentCaps };
}

describe("metering proxy on a hard ceiling", () => {
  it("lowers each call's output cap to fit, then stops the slice short of the ceiling", async () => {
    const { proxy, post, sentCaps } = await setUp(0.05, true);
    expect((await post()).status).toBe(200);
    const [first] = sentCaps();
    expect(first).toBeLessThan(5_000);
    expect(proxy.reading().usd).toBeCloseTo(usdFor(SONNET, { input: 100, output: first ?? 0 }), 12);
    const stopped = await post();
    expect(stopped.status).toBe(400);
    expect(stopped.text).toMatch(/last of the goal's budget.*is left; the slice must stop/);
    expect(proxy.reading()).toMatchObject({ overCap: 1, replies: 1 });
    expect(proxy.reading().usd).toBeLessThanOrEqual(0.05);
  });

  it("counts the calls in flight, so a burst of parallel calls cannot cross it either", async () => {
    const { proxy, post, sentCaps } = await setUp(0.1, true, 300);
    const answers = await Promise.all([post(), post(), post(), post()]);
    const admitted = answers.filter((a) => a.status === 200).length;
    expect(admitted).toBeGreaterThan(0);
    expect(admitted).toBeLessThan(4);
    expect(proxy.reading().usd).toBeLessThanOrEqual(0.1);
    // Each later call got only what the ones before it left.
    const caps = sentCaps();
    expect(caps.length).toBe(admitted);
    expect(caps.slice(1).every((c, i) => c <= (caps[i] ?? 0))).toBe(true);
  });

  it("on a tick cap, the reply in flight when the cap is reached still counts", async () => {
    const { proxy, post, sentCaps } = await setUp(0.05, false);
    expect((await post()).status).toBe(200);
    expect(sentCaps()).toEqual([32_000]);
    expect(proxy.reading().usd).toBeGreaterThan(0.05);
    expect((await post()).status).toBe(400);
  });
});
