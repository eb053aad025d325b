import * as core from "@actions/core";
import { getActionInputs } from "./get-action-inputs.ts";
import { getIdToken } from "./get-id-token.ts";
import { main } from "./main.ts";
import type { PhaseContext } from "./phase-context.ts";
import { getRunnerEnv } from "./runner-env.ts";
import { SecretRegistry } from "./secret-registry.ts";
import { createTickApi, type TickApi } from "./tick-api-client.ts";

/** Inputs in, outputs and the job summary out; any failure fails the step with its message. */
export async function run(): Promise<void> {
  const secrets = new SecretRegistry();
  try {
    const input = getActionInputs();
    secrets.add(input.token);
    const env = getRunnerEnv();
    let api: TickApi | null = null;
    const ctx: PhaseContext = {
      input,
      env,
      secrets,
      tickDir: input["tick-dir"] ?? env.defaultTickDir,
      api: () => {
        const baseUrl = input["api-url"];
        if (!baseUrl) throw new Error(`phase "${input.phase}" needs the \`api-url\` input`);
        api ??= createTickApi({
          baseUrl,
          idToken: () => getIdToken(input.audience),
          retryBaseMs: env.retryBaseMs,
        });
        return api;
      },
    };
    const result = await main(ctx);
    for (const [name, value] of Object.entries(result.outputs)) core.setOutput(name, value);
    const summary = secrets.redact(result.summary);
    core.info(summary);
    await core.summary.addRaw(summary, true).write();
    if (result.failure !== null) core.setFailed(secrets.redact(result.failure));
  } catch (error) {
    // Not only Error instances: a thrown string must still fail the step, never leave it green.
    const message = error instanceof Error ? error.message : String(error);
    core.setFailed(secrets.redact(message));
  }
}
