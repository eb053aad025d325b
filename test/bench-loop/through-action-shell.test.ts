/**
 * The quick pair of `bench:loop` through the shipped tick workflow and action, the agent's CLI
 * as the shell harness's command: the same outcome as in process (through-action.ts says what
 * is compared).
 */
import { describe, it } from "vitest";
import { QUICK_TASKS } from "../../bench/loop/play-cell.ts";
import { expectSameOutcome } from "./through-action.ts";

describe("bench:loop through the action, shell", () => {
  it.each(QUICK_TASKS)(
    "%s: the in-process outcome",
    (taskId) => expectSameOutcome(taskId, "shell"),
    600_000,
  );
});
