import type { Routes } from "../webhooks/on.ts";
import { on } from "../webhooks/on.ts";
import { onWorkflowRun, WorkflowRunCompleted } from "./on-workflow-run.ts";

/** Tick workflow runs: one that failed before reaching the API becomes host_failure evidence. */
export const TICK_HANDLERS: Routes = {
  "workflow_run.completed": on(WorkflowRunCompleted, onWorkflowRun),
};
