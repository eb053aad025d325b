/**
 * What every arm of `bench:loop` is given and what it hands back. An arm drives the fixed
 * agent (bench/loop/agent) against one cell's world (bench/loop/world) until the cell's
 * horizon on the sandbox's simulated clock; the bench then grades `main` and reads the world's
 * and the sandbox's records. An arm reports what it spent, never what landed: landing is the
 * hidden tests' verdict on `main`.
 */
import type { Agent, Profile, Skill } from "../agent/agent-types.ts";
import type { LoadedTask } from "../tasks/load-tasks.ts";
import type { CellWorld } from "../world/cell-world.ts";

/** How an ablation's arm is named: `loopx-without-budgets` is LoopX without its budgets. */
export const ABLATION = "loopx-without-";

/** The component an ablation of LoopX leaves out (the arm is `loopx-without-<it>`). */
export type LoopxPart = "budgets" | "backoff" | "gates" | "leases" | "fencing";

/** The faults a cell may inject (`none` is the sanity row). */
export type FaultName =
  | "none"
  | "runner-killed"
  | "webhook-lost"
  | "webhook-duplicated"
  | "webhook-reordered"
  | "github-5xx"
  | "github-rate-limited"
  | "app-restarted"
  | "lease-expired"
  | "report-lost"
  | "report-rerun"
  | "sticky-edited"
  | "stale-approval"
  | "actions-outage";

export interface CellSpec {
  task: LoadedTask;
  /**
   * The other task of a shared-file pair: its objective is a second goal in the same
   * repository, filed alongside the first (both change a file in common).
   */
  partner?: LoadedTask;
  profile: Profile;
  fault: FaultName;
  seed: number;
  /** Simulated hours the arm may run before the cell is graded. */
  horizonHours: number;
  /**
   * The model USD the goal's owners approved, where the cell sets one: LoopX gets it as
   * `budgets.goal.usd`, the oracle holds its slices to it, B1's recipe has no such knob.
   */
  budgetUsd?: number;
}

export interface ArmContext {
  world: CellWorld;
  cell: CellSpec;
  /** What the fixed agent knows how to do for this task (skill-of.ts). */
  skill: Skill;
  /** Its skill for the partner's objective, in a pair cell. */
  partnerSkill?: Skill;
  /** The agent the arm runs: the scripted one (run-agent.ts) unless `--real-model` gives another. */
  agent?: Agent;
}

/** One job a workflow run billed, as GitHub bills it: whole minutes, rounded up, at least 1. */
export interface BilledJob {
  at: number;
  /**
   * `agent` ran a harness slice; `ask`, `report` and `skip` did not. `skip` is
   * a run that did no slice at all (a plain loop finding DONE, LoopX's ask answering wait):
   * the spend of waiting by running.
   */
  kind: "ask" | "agent" | "report" | "skip";
  minutes: number;
}

/** One run of the agent (a harness slice), whatever the arm called it. */
export interface SliceRecord {
  at: number;
  /** The skill todo the agent worked, as it said (null when it only planned or idled). */
  todo: string | null;
  progressed: boolean;
  died: boolean;
  /** Model tokens the agent consumed (the metering proxy's count, not the agent's claim). */
  tokens: number;
  /** Files the agent wrote that reached a branch on GitHub. */
  pushedFiles: string[];
}

export interface ArmRun {
  arm: string;
  slices: SliceRecord[];
  jobs: BilledJob[];
  /** Pull requests the arm opened (numbers), duplicates included. */
  pullsOpened: number[];
  /** Comments the arm's own identity posted. */
  commentsPosted: number;
  /** The arm stopped by itself before the horizon (DONE marker, goal done, budget). */
  stoppedAt: number | null;
  notes: string[];
  /** One line per fault the cell injected that happened in this run (what it struck). */
  faults: string[];
  /** One line per struck fault the arm had not recovered from when the run ended. */
  unrecovered: string[];
}

export interface Arm {
  readonly name: string;
  /** It can play a pair cell: two goals in one repository (arms without it sit those out). */
  readonly pairs?: boolean;
  /**
   * What this arm lacks of the one it ablates (LoopX without its budgets): it plays only the
   * cells that name it, where that mechanism is what the cell tests.
   */
  readonly ablates?: string;
  run(ctx: ArmContext): Promise<ArmRun>;
}
