import * as core from "@actions/core";
import type { Metering } from "@loopx/core";
import { type HarnessAdapter, type MeteringProxy, startMeteringProxy } from "@loopx/harness";
import type { SelectedHarness } from "./select-harness.ts";

export interface MeteredHarness {
  adapter: HarnessAdapter;
  /** The harness's environment: the proxy's address and capability instead of the key. */
  env: Record<string, string>;
  metering: Metering;
  proxy: MeteringProxy | null;
  /** Stops the proxy once the slice is over, warning about models it could not price. */
  close(): Promise<void>;
}

/** Says which models went unpriced and how to price them (the slice was charged its cap). */
export function warnUnpriced(models: readonly string[], capUsd: number): void {
  for (const model of models) {
    core.warning(
      `codex used model "${model}", which has no price in LoopX's table, so this slice was charged its cap ($${capUsd}). Add its price (USD per million tokens) with the repository variable LOOPX_CODEX_PRICES or the codex-prices input: {"${model}":{"inputPerMTok":…,"cachedInputPerMTok":…,"outputPerMTok":…}}`,
    );
  }
}

/**
 * The slice's USD ceiling; `hard` when it is the last of the goal's budget rather than its
 * tick cap, so no model call may start that could cross it.
 */
export interface Ceiling {
  usd: number;
  hard: boolean;
}

const ANTHROPIC = "https://api.anthropic.com";
const OPENAI = "https://api.openai.com/v1";

/**
 * Puts the metering proxy between the harness and its model: the proxy takes the model key
 * (and any gateway URL the workflow set), the harness gets the proxy's loopback URL and a
 * capability good for this slice only. A subscription OAuth token cannot be proxied: it is
 * handed to the harness as it is, and the slice is `unmetered` (charged its cap).
 */
export async function meterHarness(
  harness: SelectedHarness,
  ceiling: Ceiling,
): Promise<MeteredHarness> {
  const metered = await meter(harness, ceiling);
  const { proxy } = metered;
  return {
    ...metered,
    close: async () => {
      if (!proxy) return;
      await proxy.close();
      warnUnpriced(proxy.reading().unpriced, ceiling.usd);
    },
  };
}

async function meter(
  harness: SelectedHarness,
  ceiling: Ceiling,
): Promise<Omit<MeteredHarness, "close">> {
  const {
    ANTHROPIC_API_KEY,
    ANTHROPIC_BASE_URL,
    CLAUDE_CODE_OAUTH_TOKEN,
    OPENAI_API_KEY,
    OPENAI_BASE_URL,
    ...rest
  } = harness.env;
  switch (harness.name) {
    case "claude-code": {
      if (!ANTHROPIC_API_KEY) {
        const env = { ...rest, ...(CLAUDE_CODE_OAUTH_TOKEN ? { CLAUDE_CODE_OAUTH_TOKEN } : {}) };
        return {
          adapter: harness.adapter(),
          env,
          metering: CLAUDE_CODE_OAUTH_TOKEN ? "unmetered" : "no_model",
          proxy: null,
        };
      }
      const proxy = await startMeteringProxy({
        provider: "anthropic",
        upstream: ANTHROPIC_BASE_URL || ANTHROPIC,
        key: ANTHROPIC_API_KEY,
        capUsd: ceiling.usd,
        hard: ceiling.hard,
      });
      return {
        adapter: harness.adapter(),
        env: { ...rest, ANTHROPIC_BASE_URL: proxy.url, ANTHROPIC_API_KEY: proxy.capability },
        metering: "proxy",
        proxy,
      };
    }
    case "codex": {
      if (!OPENAI_API_KEY || !harness.prices) {
        return { adapter: harness.adapter(), env: rest, metering: "no_model", proxy: null };
      }
      const proxy = await startMeteringProxy({
        provider: "openai",
        upstream: OPENAI_BASE_URL || OPENAI,
        key: OPENAI_API_KEY,
        capUsd: ceiling.usd,
        hard: ceiling.hard,
        prices: harness.prices,
      });
      return {
        adapter: harness.adapter({ baseUrl: proxy.url, envKey: "OPENAI_API_KEY" }),
        env: { ...rest, OPENAI_API_KEY: proxy.capability },
        metering: "proxy",
        proxy,
      };
    }
    case "shell":
      // Whatever the workflow forwards is the command's to use; nothing counts what it spends.
      return {
        adapter: harness.adapter(),
        env: harness.env,
        metering: harness.secrets.length > 0 ? "unmetered" : "no_model",
        proxy: null,
      };
  }
}
