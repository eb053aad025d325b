import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { PriceTable } from "../price-table.ts";
import type { HarnessAdapter, LaunchContext } from "../slice-types.ts";
import { claudeStreamMeter } from "./claude-stream.ts";
import { refuseDangerousArgs } from "./refuse-dangerous-args.ts";

export interface ClaudeCodeConfig {
  /** The `claude` executable; defaults to the one on PATH. */
  bin?: string;
  model?: string;
  /** stream-json (default) lets the USD limit act mid-slice; json only sees the final cost. */
  outputFormat?: "stream-json" | "json";
  /** For the running estimate only; the CLI's final total_cost_usd replaces it. */
  prices?: PriceTable;
  /**
   * CLAUDE_CONFIG_DIR, where session files live. Defaults to a fresh directory per slice;
   * set it (and `resumeSessionId`) only when the previous tick's session files were restored.
   */
  configDir?: string;
  resumeSessionId?: string;
  /** More CLI flags (e.g. --append-system-prompt). `--dangerously-*` flags are refused. */
  extraArgs?: string[];
}

/**
 * Deliberately above list prices, so the running estimate stops a runaway slice early
 * rather than late; the final figure comes from the CLI.
 */
export const CLAUDE_ESTIMATE_PRICES: PriceTable = {
  inputPerMTok: 5,
  outputPerMTok: 25,
  cachedInputPerMTok: 0.5,
  cacheWritePerMTok: 6.25,
};

/**
 * Claude Code in print mode. Tools are granted with --allowedTools from the repository config
 * (never --dangerously-skip-permissions, which is also refused as root); --max-turns and
 * --max-budget-usd make the CLI stop itself, and the runner enforces both again from the
 * stream in case it does not.
 */
export function claudeCodeAdapter(config: ClaudeCodeConfig = {}): HarnessAdapter {
  refuseDangerousArgs("claude-code", config.extraArgs ?? []);
  const format = config.outputFormat ?? "stream-json";
  return {
    name: "claude-code",
    async launch(ctx: LaunchContext) {
      const configDir = config.configDir ?? join(ctx.scratchDir, "claude-config");
      await mkdir(configDir, { recursive: true });
      const { limits, allowedTools } = ctx.input;
      const args = [
        "-p",
        ctx.prompt,
        "--output-format",
        format,
        ...(format === "stream-json" ? ["--verbose", "--include-partial-messages"] : []),
        "--max-turns",
        String(limits.maxTurns),
        "--max-budget-usd",
        String(limits.maxUsd),
        // The result file lives outside the work tree; this is the one extra place it may write.
        "--add-dir",
        dirname(ctx.resultPath),
        ...(config.model ? ["--model", config.model] : []),
        ...(config.resumeSessionId ? ["--resume", config.resumeSessionId] : []),
        ...(config.extraArgs ?? []),
        // Variadic: keep it last so it cannot swallow another flag's value.
        ...(allowedTools.length > 0 ? ["--allowedTools", ...allowedTools] : []),
      ];
      return {
        command: config.bin ?? "claude",
        args,
        env: {
          CLAUDE_CONFIG_DIR: configDir,
          DISABLE_TELEMETRY: "1",
          DISABLE_AUTOUPDATER: "1",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        },
      };
    },
    meter: () => claudeStreamMeter(config.prices ?? CLAUDE_ESTIMATE_PRICES),
  };
}
