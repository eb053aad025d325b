import * as core from "@actions/core";
import { getActionInputs } from "./get-action-inputs.ts";
import { main } from "./main.ts";

/** Inputs in, outputs and the job summary out; any failure fails the step with its message. */
export async function run(): Promise<void> {
  try {
    const input = getActionInputs();
    const result = await main({ input });
    for (const [name, value] of Object.entries(result.outputs)) core.setOutput(name, value);
    core.info(result.summary);
    await core.summary.addRaw(result.summary, true).write();
  } catch (error) {
    // Not only Error instances: a thrown string must still fail the step, never leave it green.
    core.setFailed(error instanceof Error ? error.message : String(error));
  }
}
