import { HarnessResult, ZERO_COST } from "@loopx/core";

/**
 * The result sent when the agent job left none (crashed, cancelled, timed out by the runner,
 * or wrote something invalid): a host failure, so the App still charges the tick's cost.
 */
export function missingResult(todo: string, why: string): HarnessResult {
  return HarnessResult.parse({
    todo,
    outcome: "failed",
    failure: "host_failure",
    evidence: [{ kind: "log", summary: why.slice(0, 500) }],
    handoff: {
      done: `The agent job produced no result: ${why}`.slice(0, 1000),
      next: `Retry ${todo} from the brief; the branch holds any work already pushed.`,
      questions: [],
    },
    cost: ZERO_COST,
  });
}
