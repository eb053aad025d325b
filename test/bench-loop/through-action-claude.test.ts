/**
 * The quick pair of `bench:loop` through the shipped tick workflow and action, the real
 * `claude` running the agent's CLI with its Bash tool, its model a scripted server: the same
 * outcome as in process (through-action.ts says what is compared).
 */
import { describe, it } from "vitest";
import { QUICK_TASKS } from "../../bench/loop/play-cell.ts";
import { expectSameOutcome } from "./through-action.ts";

describe("bench:loop through the action, claude-code", () => {
  it.each(QUICK_TASKS)(
    "%s: the in-process outcome",
    (taskId) => expectSameOutcome(taskId, "claude-code"),
    600_000,
  );
});
