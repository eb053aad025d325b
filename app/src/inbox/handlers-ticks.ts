import { onWorkflowRun, WorkflowRunCompleted } from "../scheduler/on-workflow-run.ts";
import { type Handler, on } from "./on.ts";

/** Tick workflow runs: one that failed before reaching the API becomes host_failure evidence. */
export const TICK_HANDLERS: Record<string, Handler> = {
  "workflow_run.completed": on(WorkflowRunCompleted, onWorkflowRun),
};
