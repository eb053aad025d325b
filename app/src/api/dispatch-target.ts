import type { TransitionResult } from "@loopx/core";
import type { RepoFacts } from "../repo-facts.ts";

/**
 * The next tick's dispatch carries the workflow and default branch this call already
 * authorized against, so the outbox dispatches without reading the repository again (the
 * scheduler's dispatches do the same). An invalid config leaves it to the outbox, which skips it.
 */
export function targeted(result: TransitionResult, facts: RepoFacts): TransitionResult {
  const config = facts.config;
  if (!result.ok || !config) return result;
  const target = { workflow: config.tickWorkflow, ref: facts.defaultBranch };
  const effects = result.effects.map((e) =>
    e.kind === "dispatch" && e.target === undefined ? { ...e, target } : e,
  );
  return { ...result, effects };
}
