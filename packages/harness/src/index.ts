export {
  CLAUDE_ESTIMATE_PRICES,
  type ClaudeCodeConfig,
  claudeCodeAdapter,
} from "./adapters/claude-code.ts";
export { type CodexConfig, codexAdapter } from "./adapters/codex.ts";
export { type ShellConfig, shellAdapter } from "./adapters/shell.ts";
export { AgentClaim, readAgentClaim } from "./agent-claim.ts";
export { decideOutcome } from "./decide-outcome.ts";
export {
  type Jail,
  type JailOptions,
  openJail,
  type Spawned,
  type Spawner,
} from "./jail/open-jail.ts";
export { asRoot, checkJailSupport, JailError } from "./jail/privilege.ts";
export { processesOf } from "./jail/processes-of.ts";
export { anthropicPrices } from "./metering/anthropic-prices.ts";
export {
  type MeteringOptions,
  type MeteringProxy,
  type MeteringReading,
  startMeteringProxy,
} from "./metering/metering-proxy.ts";
export { ModelPrices, OPENAI_PRICES, priceFor } from "./metering/openai-prices.ts";
export { LOOPX_GIT_USER, neutralGit, OwnRepo } from "./own-repo.ts";
export { PriceTable, usdFor } from "./price-table.ts";
export { runBounded } from "./run-bounded.ts";
export { baseEnv, runSlice, SliceLimitsSchema } from "./run-slice.ts";
export * from "./slice-types.ts";
export {
  hostWorkspace,
  type OwnWorkspaceOptions,
  ownWorkspace,
} from "./slice-workspace.ts";
export { toHarnessResult } from "./to-harness-result.ts";
