import { requireRepoAccess } from "../auth.ts";
import { notFound } from "../http-error.ts";
import { iso, isoOrNull, nodeId } from "../render/core.ts";
import type { Route } from "../router.ts";
import type { WorkflowJob } from "../state/types.ts";
import { intParam, ok, paginate, type RouteContext, repoOf } from "./context.ts";

/** `GET …/actions/runs/{run_id}/jobs`: the jobs the sandbox's runner recorded for a run. */
export function jobRoutes(ctx: RouteContext): Route[] {
  const { store, render } = ctx;
  const renderJob = (job: WorkflowJob) => {
    const run = store.workflowRuns.get(job.runId);
    const repo = store.repo(job.repoId);
    const base = render.repoUrl(repo);
    const workflow = run ? store.workflows.get(run.workflowId) : undefined;
    return {
      id: job.id,
      run_id: job.runId,
      run_url: `${base}/actions/runs/${job.runId}`,
      run_attempt: run?.runAttempt ?? 1,
      node_id: nodeId("CR", job.id),
      head_sha: run?.headSha ?? "",
      url: `${base}/actions/jobs/${job.id}`,
      html_url: `${render.repoHtml(repo)}/actions/runs/${job.runId}/job/${job.id}`,
      status: job.status,
      conclusion: job.conclusion,
      created_at: iso(job.createdAt),
      started_at: iso(job.startedAt),
      completed_at: isoOrNull(job.completedAt),
      name: job.name,
      steps: job.steps.map((s) => ({
        name: s.name,
        status: s.status,
        conclusion: s.conclusion,
        number: s.number,
        started_at: isoOrNull(s.startedAt),
        completed_at: isoOrNull(s.completedAt),
      })),
      check_run_url: `${base}/check-runs/${job.id}`,
      labels: ["ubuntu-latest"],
      runner_id: job.conclusion === "skipped" ? null : 1,
      runner_name: job.conclusion === "skipped" ? null : "sandbox-runner",
      runner_group_id: job.conclusion === "skipped" ? null : 1,
      runner_group_name: job.conclusion === "skipped" ? null : "sandbox",
      workflow_name: workflow?.name ?? null,
      head_branch: run?.headBranch ?? null,
    };
  };
  return [
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/actions/runs/{run_id}/jobs",
      operationId: "actions/list-jobs-for-workflow-run",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "actions", "read");
        const run = store.workflowRuns.get(intParam(req.params.run_id));
        if (!run || run.repoId !== repo.id) throw notFound();
        const jobs = [...store.workflowJobs.values()].filter((j) => j.runId === run.id);
        const { page, headers } = paginate(
          jobs,
          req,
          `${render.repoUrl(repo)}/actions/runs/${run.id}/jobs`,
        );
        return ok({ total_count: jobs.length, jobs: page.map(renderJob) }, 200, headers);
      },
    },
  ];
}
