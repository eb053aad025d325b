import type { ActionInput } from "./inputs.ts";
import type { RunnerEnv } from "./runner-env.ts";
import type { SecretRegistry } from "./secret-registry.ts";
import type { TickApi } from "./tick-api-client.ts";

export interface PhaseContext {
  input: ActionInput;
  env: RunnerEnv;
  secrets: SecretRegistry;
  /** The tick API with fresh OIDC tokens; only phases that talk to the App call it. */
  api: () => TickApi;
  /** Where the phases' files live (the `tick-dir` input, else $RUNNER_TEMP/loopx-tick). */
  tickDir: string;
}

export interface PhaseResult {
  /** Markdown for the job summary. */
  summary: string;
  outputs: Record<string, string>;
  /**
   * Set when the phase did what it could but the step must still fail (e.g. the result could
   * not be uploaded): the summary and outputs are written first, then the step fails with this.
   */
  failure: string | null;
}
