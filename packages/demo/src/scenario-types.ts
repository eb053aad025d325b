/** What the demo's scenarios and the tests that follow them share: step names and facts. */
import type { People } from "./people.ts";
import type { Progress } from "./progress.ts";
import type { Waiter } from "./wait-until.ts";

/** The issue-fix loop's steps, in order. */
export type IssueFixStep =
  | "goal-started"
  | "todo-added"
  | "pr-opened"
  | "ci-failed"
  | "repaired"
  | "changes-requested"
  | "review-addressed"
  | "approved"
  | "done";
/** `--plan`'s steps (plan-scenario.ts), in order. */
export type PlanStep =
  | "goal-started"
  | "planned"
  | "others-proceed"
  | "scope-approved"
  | "all-ready"
  | "done";
export type StepName = IssueFixStep | PlanStep;

export interface ScenarioFacts {
  goalId: string;
  issue: number;
  pr: number | null;
  /** The PR's head when the step was reached. */
  headSha: string | null;
  mergeSha: string | null;
  /** Every PR the owner merged, in order, with its merge commit. */
  merged: { pr: number; sha: string }[];
  /** The final report comment LoopX posted on the goal issue. */
  finalReport: string | null;
}

/** Called once each step is reached (the e2e test asserts there). */
export type StepHook = (step: StepName, facts: ScenarioFacts) => Promise<void> | void;

export interface ScenarioIo {
  progress: Progress;
  waiter: Waiter;
  people: People;
  setGoal(id: string): void;
  /**
   * Asks the person at the terminal; true on yes, false on no or when `signal` aborts the
   * question. Null when there is no terminal to ask.
   */
  confirm: ((question: string, signal?: AbortSignal) => Promise<boolean>) | null;
  onStep?: StepHook | undefined;
}
