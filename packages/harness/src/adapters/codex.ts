import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { PriceTable } from "../price-table.ts";
import type { HarnessAdapter, LaunchContext } from "../slice-types.ts";
import { codexEventMeter } from "./codex-events.ts";
import { refuseDangerousArgs } from "./refuse-dangerous-args.ts";

export interface CodexConfig {
  /** The `codex` executable; defaults to the one on PATH. */
  bin?: string;
  model?: string;
  /** Codex reports tokens only: USD comes from this table (required, so cost is never 0 by accident). */
  prices: PriceTable;
  /**
   * A Responses-API provider (codex ignores OPENAI_BASE_URL alone). Without it codex uses its
   * built-in OpenAI provider.
   */
  provider?: { baseUrl: string; envKey?: string; name?: string };
  /** CODEX_HOME (sessions, config). Defaults to a fresh directory per slice. */
  home?: string;
  extraArgs?: string[];
}

/**
 * `codex exec --json`, stdin closed, pointed at the configured provider. Codex's own sandbox
 * is off (`danger-full-access`, what OpenAI advises inside an isolated environment): the
 * slice runs in LoopX's jail, which decides what is writable, and codex nesting bubblewrap
 * in it would make the slice depend on whether the runner has bubblewrap installed.
 */
export function codexAdapter(config: CodexConfig): HarnessAdapter {
  const prices = PriceTable.parse(config.prices);
  refuseDangerousArgs("codex", config.extraArgs ?? []);
  return {
    name: "codex",
    async launch(ctx: LaunchContext) {
      const home = config.home ?? join(ctx.scratchDir, "codex-home");
      await mkdir(home, { recursive: true });
      const provider = config.provider
        ? [
            "-c",
            "model_provider=loopx",
            "-c",
            `model_providers.loopx={name=${toml(config.provider.name ?? "loopx")},base_url=${toml(config.provider.baseUrl)},wire_api="responses",env_key=${toml(config.provider.envKey ?? "OPENAI_API_KEY")}}`,
          ]
        : [];
      return {
        command: config.bin ?? "codex",
        args: [
          "exec",
          "--json",
          "--skip-git-repo-check",
          "--color",
          "never",
          "--sandbox",
          "danger-full-access",
          "-C",
          ctx.input.workdir,
          ...provider,
          ...(config.model ? ["-m", config.model] : []),
          ...(config.extraArgs ?? []),
          ctx.prompt,
        ],
        env: { CODEX_HOME: home },
      };
    },
    meter: () => codexEventMeter(prices),
  };
}

/** A TOML basic string (JSON's escaping is a subset TOML accepts). */
function toml(s: string): string {
  return JSON.stringify(s);
}
