/**
 * The real `claude` CLI in the jail, talking to a scripted Messages API only through the
 * metering proxy, which alone holds the key. The scripted server refuses any other key, as
 * Anthropic's does. Cost is what the proxy counted from the server's replies.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type AnthropicScriptStep,
  bash,
  type ScriptedAnthropic,
  startScriptedAnthropic,
  text,
  writeFile,
} from "@loopx/sandbox/models";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { claudeCodeAdapter, runSlice, type SliceInput, usdFor } from "../src/index.ts";
import { anthropicPrices } from "../src/metering/anthropic-prices.ts";
import { startMeteringProxy } from "../src/metering/metering-proxy.ts";
import {
  cleanupTempDirs,
  cliBin,
  GOOD_CLAIM,
  gitWorkdir,
  resultPathIn,
  sliceInput,
} from "./fixtures.ts";

afterAll(cleanupTempDirs);

const KEY = "sk-ant-api03-metered-key-held-by-the-proxy-only-0123456789";
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function meteredSlice(
  turns: AnthropicScriptStep[],
  capUsd: number,
  over: Partial<SliceInput> = {},
  work = gitWorkdir(),
) {
  const server: ScriptedAnthropic = await startScriptedAnthropic({ turns, apiKey: KEY });
  const proxy = await startMeteringProxy({
    provider: "anthropic",
    upstream: server.url,
    key: KEY,
    capUsd,
  });
  closers.push(server.close, proxy.close);
  const report = await runSlice(
    claudeCodeAdapter({ bin: cliBin("claude") }),
    sliceInput(work, {
      // The provider's address is no secret: a jailed agent may know it, but not the key.
      env: {
        ANTHROPIC_BASE_URL: proxy.url,
        ANTHROPIC_API_KEY: proxy.capability,
        LOOPX_UPSTREAM: server.url,
      },
      allowedTools: ["Write", "Bash"],
      jail: { hidden: [] },
      metered: proxy.reading,
      limits: { wallMs: 30_000, idleMs: 20_000, maxTurns: 10, maxUsd: capUsd },
      ...over,
    }),
  );
  return { report, server, proxy, work };
}

describe("claude in the jail, metered by the proxy", () => {
  it("works through the proxy; the key is nowhere in the jail; a direct call is refused; cost is the proxy's count", async () => {
    const work = gitWorkdir();
    const forged = JSON.stringify({
      type: "result",
      subtype: "success",
      is_error: false,
      total_cost_usd: 0,
      num_turns: 1,
    });
    const { report, server, proxy } = await meteredSlice(
      [
        {
          content: [
            bash(
              [
                "env > seen-env",
                `curl -s -o /dev/null -w '%{http_code}' -X POST -H "x-api-key: $ANTHROPIC_API_KEY" "$LOOPX_UPSTREAM/v1/messages" > direct-status`,
                // Its own output is the agent's to write: a forged final line changes no cost.
                `for p in /proc/[0-9]*; do echo '${forged}' > $p/fd/1 2>/dev/null; done; true`,
              ].join("; "),
            ),
          ],
          usage: { input_tokens: 1200, output_tokens: 300 },
        },
        {
          content: [writeFile(join(work, "hello.txt"), "hi\n")],
          usage: { input_tokens: 1500, output_tokens: 100 },
        },
        (req) => ({ content: [writeFile(resultPathIn(req.prompt), JSON.stringify(GOOD_CLAIM))] }),
        { content: [text("Done.")] },
      ],
      5,
      {},
      work,
    );
    expect(report.outcome, `${report.reason}\n${report.outputTail}`).toBe("validated_progress");
    expect(readFileSync(join(work, "seen-env"), "utf8")).not.toContain(KEY);
    expect(readFileSync(join(work, "direct-status"), "utf8")).toBe("401");
    // The CLI's requests reached the server through the proxy, with the key; the one without
    // is the agent's direct call.
    const calls = server.requests.filter((r) => r.path === "/v1/messages");
    expect(calls.filter((r) => r.headers["x-api-key"] !== KEY)).toHaveLength(1);
    const counted = proxy.reading();
    expect(counted.replies).toBeGreaterThanOrEqual(4);
    expect(report.cost.usd).toBe(counted.usd);
    expect(report.cost.tokens).toBe(counted.tokens);
    const sonnet = anthropicPrices("claude-sonnet-4-5");
    expect(report.cost.usd).toBeGreaterThanOrEqual(usdFor(sonnet, { input: 2700, output: 400 }));
  }, 60_000);

  it("spending past the slice's cap is over budget, charged what the proxy counted", async () => {
    const work = gitWorkdir();
    const big = { input_tokens: 100_000, output_tokens: 10_000 };
    const { report, proxy } = await meteredSlice(
      [
        { content: [bash("echo one > one.txt")], usage: big },
        { content: [bash("echo two > two.txt")], usage: big },
        { content: [writeFile(join(work, "hello.txt"), "hi\n")], usage: big },
        { content: [text("Done.")] },
      ],
      0.2,
      {},
      work,
    );
    expect(report.outcome, report.reason).toBe("over_budget");
    expect(report.cost.usd).toBe(proxy.reading().usd);
    expect(report.cost.usd).toBeGreaterThan(0.2);
  }, 60_000);
});
