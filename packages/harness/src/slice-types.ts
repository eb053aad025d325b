import type { Cost, Validation } from "@loopx/core";
import type { AgentClaim } from "./agent-claim.ts";

/** What one bounded slice came to. Progress is decided by validation and the work tree. */
export const SLICE_OUTCOMES = [
  "validated_progress",
  "validated_completion",
  "claimed_completion",
  "no_progress",
  "host_failure",
  "validation_failed",
  "timeout",
  "turn_limit",
  "over_budget",
  "interrupted",
  "checkpoint",
] as const;
export type SliceOutcome = (typeof SLICE_OUTCOMES)[number];

export interface SliceLimits {
  /** Wall clock for the harness process (validation has its own limit). */
  wallMs: number;
  /** No byte on stdout or stderr for this long kills the slice. */
  idleMs: number;
  /** Model turns (tool round trips); the CLI's own limit, with the adapter as backstop. */
  maxTurns: number;
  /** Spend ceiling for this slice, from streamed usage where the harness reports it. */
  maxUsd: number;
}

export interface SliceBrief {
  /** Markdown the agent reads (core's rendered brief). */
  text: string;
  /** The structured brief (core's HarnessBrief), written to $LOOPX_BRIEF. */
  json: unknown;
}

export interface SliceInput {
  /** The checked-out todo branch the agent works in. */
  workdir: string;
  brief: SliceBrief;
  /** Todo key, e.g. T3. */
  todo: string;
  limits: SliceLimits;
  /** Shell command that decides progress (exit 0 passes); null when the goal has none. */
  validationCommand: string | null;
  /** Environment for the harness on top of a small base (PATH, HOME, locale, TMPDIR). */
  env: Record<string, string>;
  /** Exact values to redact from everything returned (API keys handed to the harness). */
  secrets: string[];
  /** Tool grants for harnesses that take them (Claude Code's --allowedTools). */
  allowedTools: string[];
  signal?: AbortSignal;
  /**
   * The run was cancelled under the slice (a person stopped or paused the goal): the harness is
   * stopped as by `signal`, but the work tree is still observed, not validated, so the work in
   * progress and the agent's handoff reach the report job.
   */
  interrupt?: AbortSignal;
  /**
   * The tick's checkpoint: the harness is stopped then, whatever its wall limit, and its work
   * tree is observed, not validated, so the report job still pushes it inside the lease.
   */
  deadline?: Date;
  validationTimeoutMs?: number;
  /** SIGTERM → SIGKILL grace when a limit kills the process group. */
  killGraceMs?: number;
  /** Captured output is capped at this many bytes (the tail is kept). */
  outputCapBytes?: number;
  /**
   * Runs the harness in a jail (its own uid, PID and mount namespaces, read-only but the work
   * tree and the slice's directory) with `hidden` out of sight. Without it the harness runs
   * on the host: for adapter tests only, never for an agent that reads untrusted text.
   */
  jail?: { hidden: string[] };
  /** How the work tree is observed and validated afterwards (default: in place, on the host). */
  workspace?: SliceWorkspace;
  /** USD and tokens from a source the harness cannot reach (the metering proxy), if any. */
  metered?: () => { usd: number; tokens: number; overCap?: number };
  /** Where the slice's directory is made (default: the OS temp dir). */
  sliceRoot?: string;
}

/** Why the harness process ended. */
export type StopReason =
  | "exited"
  | "wall"
  | "idle"
  | "turn_limit"
  | "over_budget"
  | "aborted"
  | "spawn_failed";

export interface MeterReading {
  usd: number;
  tokens: number;
  /** Model calls the metering proxy refused because this slice's ceiling was spent. */
  overCap?: number;
  turns: number;
  sessionId: string | null;
}

/** The harness's own view of how it ended, from its exit status and final output. */
export interface AgentVerdict {
  kind: "ok" | "turn_limit" | "over_budget" | "error";
  message: string;
}

/** Parses a harness's output as it streams: usage, turns, session, final verdict. */
export interface OutputMeter {
  onLine(line: string, stream: "stdout" | "stderr"): void;
  reading(): MeterReading;
  verdict(exit: { code: number | null; signal: NodeJS.Signals | null }): AgentVerdict;
}

export interface LaunchContext {
  input: SliceInput;
  /** Where the agent must write its result JSON ($LOOPX_RESULT); outside the work tree. */
  resultPath: string;
  briefJsonPath: string;
  briefMdPath: string;
  /** The prompt: the brief plus how to report. */
  prompt: string;
  /** A private temporary directory for this slice (config homes, etc.). */
  scratchDir: string;
}

export interface LaunchSpec {
  command: string;
  args: string[];
  /** Added to the base environment. */
  env: Record<string, string>;
}

export interface HarnessAdapter {
  readonly name: string;
  launch(ctx: LaunchContext): LaunchSpec | Promise<LaunchSpec>;
  meter(ctx: LaunchContext): OutputMeter;
}

export interface ValidationRun extends Validation {
  timedOut: boolean;
  durationMs: number;
  /** Redacted, capped tail of the command's output. */
  outputTail: string;
}

export interface WorkspaceDelta {
  /** False when the work dir is not a git repository: changes cannot be seen. */
  known: boolean;
  changed: boolean;
  commits: {
    sha: string;
    message: string;
    /** Absent where the commits were not read from git log (a stand-in, a test). */
    diffstat?: { files: number; insertions: number; deletions: number } | null;
  }[];
  changedFiles: string[];
}

export interface SliceReport {
  harness: string;
  todo: string;
  outcome: SliceOutcome;
  /** For host_failure: host_failure (could not run) or harness_error (ran and failed). */
  failure: "host_failure" | "harness_error" | null;
  /** One line a person can read: why this outcome. */
  reason: string;
  cost: Cost;
  turns: number;
  sessionId: string | null;
  /** The agent's result file, parsed; null when missing or malformed (see claimError). */
  claim: AgentClaim | null;
  claimError: string | null;
  delta: WorkspaceDelta;
  validation: ValidationRun | null;
  process: {
    stop: StopReason;
    exitCode: number | null;
    signal: string | null;
    durationMs: number;
    pid: number | null;
  };
  /** The jail the harness ran in, or null when it ran on the host. */
  jail: { uid: number } | null;
  /** Why the jail could not be built or did not hold; the slice then failed closed. */
  jailFailure: string | null;
  /** Fields withheld because they held a credential (dotted paths, never the values). */
  withheld: string[];
  /** Redacted, capped tail of the harness's stdout and stderr. */
  outputTail: string;
  outputBytes: number;
  outputTruncated: boolean;
}

export interface ValidateOptions {
  command: string;
  timeoutMs: number;
  env: Record<string, string>;
  secrets: string[];
  signal?: AbortSignal;
}

/** How a slice's work tree is observed and validated once the harness is gone. */
export interface SliceWorkspace {
  /** Before the harness starts. */
  before(): Promise<void>;
  /** What the work tree became. */
  after(): Promise<WorkspaceDelta>;
  /** The validation command's verdict on what `after` saw. */
  validate(options: ValidateOptions): Promise<ValidationRun>;
}
