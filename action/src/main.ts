import type { ActionInput } from "./inputs.ts";

export interface MainResult {
  summary: string;
  outputs: Record<string, string>;
}

/** Thrown when asked for a phase this build cannot perform; the runner fails the step with it. */
export class PhaseUnavailableError extends Error {
  override name = "PhaseUnavailableError";
}

/**
 * One phase of a tick. This build only explains what a phase would do (dry run); the phases
 * that talk to the LoopX App are not part of it yet, and say so instead of pretending.
 */
export async function main({ input }: { input: ActionInput }): Promise<MainResult> {
  const target = input.goal === undefined ? "" : ` for goal #${input.goal}`;
  if (!input["dry-run"]) {
    throw new PhaseUnavailableError(
      `The "${input.phase}" phase is not available in this build of the LoopX action. ` +
        'Run it with `dry-run: "true"` to check your workflow wiring.',
    );
  }
  return {
    summary: `LoopX ${input.phase}${target}: dry run, nothing was sent (audience "${input.audience}").`,
    outputs: { run: "false", phase: input.phase },
  };
}
