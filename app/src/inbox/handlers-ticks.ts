import { onWorkflowRun, WorkflowRunCompleted } from "../scheduler/on-workflow-run.ts";
import { on } from "./on.ts";
import type { Routes } from "./route-table.ts";

/** Tick workflow runs: one that failed before reaching the API becomes host_failure evidence. */
export const TICK_HANDLERS: Routes = {
  "workflow_run.completed": on(WorkflowRunCompleted, onWorkflowRun),
};
