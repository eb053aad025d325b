import type { WorkflowJob } from "../state/types.ts";
import { runCalledWorkflow } from "./call-workflow.ts";
import { condition, type Value } from "./expressions.ts";
import type {
  JobOutcome,
  JobResultName,
  JobSlot,
  RunJobsInput,
  WorkflowScope,
} from "./job-slot.ts";
import { runStepJob } from "./step-job.ts";
import {
  type AnyJobDef,
  isCallJob,
  narrowPermissions,
  needsOf,
  resolvePermissions,
} from "./workflow-file.ts";

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
    runJobs: runWorkflowJobs,
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
