import type { Routes } from "../webhooks/on.ts";
import { on } from "../webhooks/on.ts";
import { onWorkflowRun, WorkflowRunCompleted } from "./on-workflow-run.ts";

/**
 * Workflow runs: a job's completion wakes the todo waiting on it; a tick run that failed before
 * reaching the API becomes host_failure evidence.
 */
export const TICK_HANDLERS: Routes = {
  "workflow_run.completed": on(WorkflowRunCompleted, onWorkflowRun),
};
