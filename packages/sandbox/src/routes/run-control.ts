import { requireRepoAccess } from "../auth.ts";
import { HttpError, notFound } from "../http-error.ts";
import type { Route } from "../router.ts";
import type { WorkflowRun } from "../state/types.ts";
import { intParam, ok, type RouteContext, repoOf } from "./context.ts";

/** What these routes ask of the runner. */
export interface RunControl {
  cancel(runId: number, force: boolean): void;
  approve(runId: number): void;
}

/**
 * Moving a run by hand, as REST API endpoints for workflow runs do: cancel (202; 409 once
 * completed), force-cancel (202, skips `always()`), and approve a fork pull request's run that
 * waits as `action_required` (201; Approving workflow runs from public forks).
 */
export function runControlRoutes(ctx: RouteContext, control: () => RunControl): Route[] {
  const { store } = ctx;
  const runOf = (req: Parameters<Route["handle"]>[0]): WorkflowRun => {
    const repo = repoOf(ctx, req);
    requireRepoAccess(req.principal, store, repo, "actions", "write");
    const run = store.workflowRuns.get(intParam(req.params.run_id));
    if (!run || run.repoId !== repo.id) throw notFound();
    return run;
  };
  const cancel =
    (force: boolean): Route["handle"] =>
    (req) => {
      const run = runOf(req);
      if (run.status === "completed")
        throw new HttpError(409, "Cannot cancel a workflow run that is completed.");
      control().cancel(run.id, force);
      return ok({}, 202);
    };
  return [
    {
      method: "POST",
      template: "/repos/{owner}/{repo}/actions/runs/{run_id}/cancel",
      operationId: "actions/cancel-workflow-run",
      auth: "token",
      handle: cancel(false),
    },
    {
      method: "POST",
      template: "/repos/{owner}/{repo}/actions/runs/{run_id}/force-cancel",
      operationId: "actions/force-cancel-workflow-run",
      auth: "token",
      handle: cancel(true),
    },
    {
      method: "POST",
      template: "/repos/{owner}/{repo}/actions/runs/{run_id}/approve",
      operationId: "actions/approve-workflow-run",
      auth: "token",
      handle: (req) => {
        const run = runOf(req);
        if (run.conclusion !== "action_required")
          throw new HttpError(
            403,
            "This run is not from a fork pull request or is already approved.",
          );
        control().approve(run.id);
        return ok({}, 201);
      },
    },
  ];
}
