import type { GitRoot } from "../git/root.ts";
import type { OidcIssuer } from "../oidc.ts";
import type { RouteContext } from "../routes/context.ts";
import type { WorkflowJob } from "../state/types.ts";
import type { Value } from "./expressions.ts";
import type { ActionSpec } from "./job.ts";
import type { JobWorkflow, RunIdentity } from "./job-env.ts";
import type { RuntimeTokens } from "./runtime-tokens.ts";
import type { CacheMode, WorkflowDef } from "./workflow-file.ts";

/** Everything a run's jobs share, from the top-level workflow down through every call. */
export interface RunJobsInput {
  ctx: RouteContext;
  root: GitRoot;
  oidc: OidcIssuer;
  url: string;
  id: RunIdentity;
  actions: Record<string, ActionSpec>;
  minuteMs: number;
  /** Cancellation of the run: jobs whose `if` no longer holds are cancelled. */
  signal: AbortSignal;
  /** Force-cancellation: everything stops at once. */
  force: AbortSignal;
  stopping: () => boolean;
  /** Reusable workflows this run called so far (`repo/path@sha`), for GitHub's limit. */
  called: Set<string>;
  runtime: RuntimeTokens;
}

/** One workflow being run: the run's own file, or a reusable workflow a job called. */
export interface WorkflowScope {
  def: WorkflowDef;
  /** `github`, `inputs`, `secrets`, `vars`. */
  contexts: Record<string, Value>;
  workflow: JobWorkflow;
  /** The caller job's permissions when called (the ceiling); null for the run's own file. */
  ceiling: Record<string, "read" | "write"> | null;
  /** 1 for the run's own workflow, 2 for a workflow it called, … */
  depth: number;
  /** Job keys and names are prefixed with their callers' (`tick/ask`, "tick / ask"). */
  keyPrefix: string;
  namePrefix: string;
  /** The most cache access a caller granted (`cache-mode` carries through calls); null at the top. */
  cacheCeiling: CacheMode | null;
}

export type JobResultName = "success" | "failure" | "cancelled" | "skipped";

export interface JobOutcome {
  result: JobResultName;
  outputs: Record<string, string>;
}

/** What a job runner needs for one job: its definition, record and evaluated contexts. */
export interface JobSlot {
  input: RunJobsInput;
  scope: WorkflowScope;
  key: string;
  record: WorkflowJob;
  contexts: Record<string, Value>;
  status: { success: boolean; failure: boolean; cancelled: boolean };
  permissions: Record<string, "read" | "write">;
  /** Aborted when the run is cancelled and this job's `if` no longer holds. */
  signal: AbortSignal;
  /** Runs a called workflow's jobs: a reusable-workflow call recurses through the job runner. */
  runJobs: (input: RunJobsInput, scope: WorkflowScope) => Promise<Map<string, JobOutcome>>;
}

/** The run's conclusion from its jobs' results. */
export function conclusionOf(outcomes: JobOutcome[]): "success" | "failure" | "cancelled" {
  if (outcomes.some((o) => o.result === "failure")) return "failure";
  if (outcomes.some((o) => o.result === "cancelled")) return "cancelled";
  return "success";
}
