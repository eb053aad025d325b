import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

/**
 * `npm run test:hostile`: every hostile-input test, alone. Each earlier issue keeps its
 * hostile tests beside what they test (listed here, not moved); test/hostile holds the
 * cross-cutting ones (fuzzing, secrets, mentions, outsider text, oversized input). All of
 * them also run in `npm test`.
 */
export const HOSTILE_TESTS = [
  "test/hostile/**/*.test.ts",
  // Commands, checklists, rendering: neutralised, never a command, never a ping.
  "packages/github/test/parse-command.test.ts",
  "packages/github/test/neutralize.test.ts",
  "packages/github/test/managed-block.test.ts",
  "packages/github/test/renderers.test.ts",
  "packages/github/test/render-pull-body.test.ts",
  // Untrusted text in briefs; kernel invariants over random transition sequences.
  "packages/core/test/brief.test.ts",
  "packages/core/test/invariants.property.test.ts",
  // Secrets handed to a harness, redacted from what it returns and what the action writes.
  "packages/harness/test/shell-adapter.test.ts",
  "action/test/agent-phase.test.ts",
  "action/test/report-phase.test.ts",
  "packages/core/test/redact-secrets.test.ts",
  // The jail, the repository the action owns, validation in a fresh jail, the metering proxy
  // (a forged final line on the CLI's stdout, a direct provider call), the workflows' shape.
  "packages/harness/test/jailed-slice.test.ts",
  "packages/harness/test/metered-claude.test.ts",
  "packages/harness/test/metering-proxy.test.ts",
  "action/test/workflows.test.ts",
  "test/e2e/tick-gate-workflow-patch.test.ts",
  // The tick API: forged tokens, other repositories, replays, pushes outside loopx/*.
  "test/api/tick-api-hostile.test.ts",
  "test/api/tick-api-limits.test.ts",
  "test/e2e/tick-hostile-other-branch.test.ts",
  "test/e2e/tick-hostile-workflow-path.test.ts",
  "test/e2e/tick-api-push-refused.test.ts",
  "test/e2e/tick-api-late-result.test.ts",
  // Authority: commands, checkboxes, reviews and notes from people without write access.
  "test/e2e/app-command-authority.test.ts",
  "test/e2e/app-checkbox.test.ts",
  "test/e2e/app-gate-review.test.ts",
  "test/e2e/app-notes.test.ts",
  "test/e2e/pr-review-authority.test.ts",
  "test/e2e/dashboard-pages.test.ts",
];

export default defineConfig({ test: { ...base.test, include: HOSTILE_TESTS } });
