import type { GitRoot } from "../git/root.ts";
import type { OidcIssuer } from "../oidc.ts";
import type { RouteContext } from "../routes/context.ts";
import type { WorkflowJob } from "../state/types.ts";
import { runCalledWorkflow } from "./call-workflow.ts";
import { condition, type Value } from "./expressions.ts";
import type { ActionSpec } from "./job.ts";
import type { JobWorkflow, RunIdentity } from "./job-env.ts";
import type { RuntimeTokens } from "./runtime-tokens.ts";
import { runStepJob } from "./step-job.ts";
import {
  type AnyJobDef,
  type CacheMode,
  isCallJob,
  narrowPermissions,
  needsOf,
  resolvePermissions,
  type WorkflowDef,
} from "./workflow-file.ts";

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
}

/** The run's conclusion from its jobs' results. */
export function conclusionOf(outcomes: JobOutcome[]): "success" | "failure" | "cancelled" {
  if (outcomes.some((o) => o.result === "failure")) return "failure";
  if (outcomes.some((o) => o.result === "cancelled")) return "cancelled";
  return "success";
}

/**
 * Runs a workflow's jobs as their `needs` allow (independent jobs in parallel); returns each
 * job's outcome. A job calling a reusable workflow runs that workflow's jobs in its place.
 */
export async function runWorkflowJobs(
  input: RunJobsInput,
  scope: WorkflowScope,
): Promise<Map<string, JobOutcome>> {
  const results = new Map<string, Promise<JobOutcome>>();
  const get = (key: string): Promise<JobOutcome> => {
    let p = results.get(key);
    if (!p) {
      p = runOne(input, scope, key, get);
      results.set(key, p);
    }
    return p;
  };
  const keys = Object.keys(scope.def.jobs);
  const outcomes = await Promise.all(keys.map(get));
  return new Map(keys.map((k, i) => [k, outcomes[i] ?? { result: "skipped", outputs: {} }]));
}

/** A job's token permissions: its own or its workflow's, narrowed by a caller's. */
function permissionsOf(scope: WorkflowScope, def: AnyJobDef): Record<string, "read" | "write"> {
  if (!scope.ceiling) return resolvePermissions(def.permissions, scope.def.permissions);
  return narrowPermissions(def.permissions ?? scope.def.permissions, scope.ceiling);
}

async function runOne(
  input: RunJobsInput,
  scope: WorkflowScope,
  key: string,
  get: (key: string) => Promise<JobOutcome>,
): Promise<JobOutcome> {
  const { ctx, signal } = input;
  const { store, clock } = ctx;
  const jobDef = scope.def.jobs[key];
  if (!jobDef) return { result: "skipped", outputs: {} };
  const needs = needsOf(jobDef);
  const deps = await Promise.all(needs.map(get));
  const record: WorkflowJob = {
    id: store.id(),
    runId: input.id.run.id,
    repoId: input.id.run.repoId,
    key: `${scope.keyPrefix}${key}`,
    name: `${scope.namePrefix}${jobDef.name ?? key}`,
    status: "queued",
    conclusion: null,
    createdAt: clock.now(),
    startedAt: clock.now(),
    completedAt: null,
    steps: [],
    outputs: {},
    summary: "",
    log: "",
  };
  const needsCtx: Record<string, Value> = {};
  needs.forEach((n, i) => {
    needsCtx[n] = { result: deps[i]?.result ?? "skipped", outputs: deps[i]?.outputs ?? {} };
  });
  const statusNow = () => ({
    success: deps.every((d) => d.result === "success") && !signal.aborted,
    failure: deps.some((d) => d.result === "failure"),
    cancelled: signal.aborted,
  });
  const contexts: Record<string, Value> = { ...scope.contexts, needs: needsCtx };
  const holds = () => condition(jobDef.if, { contexts, status: statusNow() });
  const finish = (result: JobResultName, outputs: Record<string, string>): JobOutcome => {
    record.status = "completed";
    record.conclusion = result;
    record.completedAt = clock.now();
    record.outputs = outputs;
    return { result, outputs };
  };
  // A call job is not a job of its own on GitHub: its called jobs are recorded instead.
  if (!isCallJob(jobDef)) store.workflowJobs.set(record.id, record);
  if (input.stopping() || input.force.aborted || !holds()) return finish("skipped", {});

  // Cancelling the run re-evaluates this job's `if` (Workflow cancellation reference, step 1):
  // an `always()` job keeps running, any other is cancelled.
  const own = new AbortController();
  const onCancel = () => {
    if (!holds()) own.abort();
  };
  const onForce = () => own.abort();
  if (signal.aborted) onCancel();
  signal.addEventListener("abort", onCancel, { once: true });
  input.force.addEventListener("abort", onForce, { once: true });
  const slot: JobSlot = {
    input,
    scope,
    key,
    record,
    contexts,
    status: statusNow(),
    permissions: permissionsOf(scope, jobDef),
    signal: own.signal,
  };
  try {
    const outcome = isCallJob(jobDef)
      ? await runCalledWorkflow(slot, jobDef)
      : await runStepJob(slot, jobDef);
    return finish(outcome.result, outcome.outputs);
  } finally {
    signal.removeEventListener("abort", onCancel);
    input.force.removeEventListener("abort", onForce);
  }
}
