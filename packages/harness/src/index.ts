export {
  CLAUDE_ESTIMATE_PRICES,
  type ClaudeCodeConfig,
  claudeCodeAdapter,
} from "./adapters/claude-code.ts";
export { type CodexConfig, codexAdapter } from "./adapters/codex.ts";
export { type ShellConfig, shellAdapter } from "./adapters/shell.ts";
export { AgentClaim, readAgentClaim } from "./agent-claim.ts";
export { decideOutcome } from "./decide-outcome.ts";
export { PriceTable, usdFor } from "./price-table.ts";
export { runBounded } from "./run-bounded.ts";
export { baseEnv, runSlice, SliceLimitsSchema } from "./run-slice.ts";
export * from "./slice-types.ts";
export { toHarnessResult } from "./to-harness-result.ts";
