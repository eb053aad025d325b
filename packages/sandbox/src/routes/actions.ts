import { z } from "zod";
import { actor, requireRepoAccess } from "../auth.ts";
import { HttpError, notFound } from "../http-error.ts";
import { renderWorkflowRun } from "../render/checks.ts";
import { iso, nodeId } from "../render/core.ts";
import type { Route, RouteRequest } from "../router.ts";
import { interpolate } from "../runner/expressions.ts";
import { runContexts } from "../runner/run-contexts.ts";
import { parseWorkflow, type WorkflowDef } from "../runner/workflow-file.ts";
import type { Repo, User, Workflow, WorkflowRun } from "../state/types.ts";
import { intParam, ok, paginate, parseBody, type RouteContext, repoOf } from "./context.ts";

const dispatchBody = z.object({
  ref: z.string().min(1),
  inputs: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  return_run_details: z.boolean().optional(),
});

/** Workflows are the `.github/workflows/*.yml` files on the default branch, plus registered ones. */
export function workflowsOf(ctx: RouteContext, repo: Repo): Workflow[] {
  const git = ctx.store.git(repo);
  const ref = `refs/heads/${repo.defaultBranch}`;
  for (const entry of git.listDir(ref, ".github/workflows") ?? []) {
    const path = entry.path;
    if (!/^\.github\/workflows\/[^/]+\.ya?ml$/.test(path)) continue;
    if ([...ctx.store.workflows.values()].some((w) => w.repoId === repo.id && w.path === path))
      continue;
    const name =
      /^name:\s*(.+)$/m
        .exec(git.readFile(ref, path) ?? "")?.[1]
        ?.trim()
        .replace(/^["']|["']$/g, "") ?? path;
    const workflow = {
      id: ctx.store.id(),
      repoId: repo.id,
      path,
      name,
      createdAt: ctx.clock.now(),
    };
    ctx.store.workflows.set(workflow.id, workflow);
  }
  return [...ctx.store.workflows.values()].filter((w) => w.repoId === repo.id);
}

function renderWorkflow(ctx: RouteContext, repo: Repo, w: Workflow) {
  const base = ctx.render.repoUrl(repo);
  return {
    id: w.id,
    node_id: nodeId("W", w.id),
    name: w.name,
    path: w.path,
    state: "active",
    created_at: iso(w.createdAt),
    updated_at: iso(w.createdAt),
    url: `${base}/actions/workflows/${w.id}`,
    html_url: `${ctx.render.repoHtml(repo)}/blob/${repo.defaultBranch}/${w.path}`,
    badge_url: `${ctx.render.repoHtml(repo)}/workflows/${encodeURIComponent(w.name)}/badge.svg`,
  };
}

/** Announces a run's state as a `workflow_run` webhook. */
export function announceRun(
  ctx: RouteContext,
  run: WorkflowRun,
  action: string,
  sender: User,
): void {
  const repo = ctx.store.repo(run.repoId);
  const workflow = ctx.store.workflows.get(run.workflowId);
  if (!workflow) return;
  ctx.bus.emit("workflow_run", repo, sender, {
    action,
    workflow: renderWorkflow(ctx, repo, workflow),
    workflow_run: renderWorkflowRun(ctx.render, run, "webhook"),
  });
}

/** The workflow file at the run's commit, or null when it is missing or invalid. */
function definitionAt(
  ctx: RouteContext,
  repo: Repo,
  path: string,
  sha: string,
): WorkflowDef | null {
  const text = ctx.store.git(repo).readFile(sha, path);
  if (text === null) return null;
  try {
    return parseWorkflow(text);
  } catch {
    return null;
  }
}

/**
 * Workflow syntax → run-name: the run's name, evaluated once when the run is created, from the
 * `github` and `inputs` contexts; null without one (the workflow's name is shown).
 */
function displayTitle(ctx: RouteContext, run: WorkflowRun, workflow: Workflow): string | null {
  const def = definitionAt(ctx, ctx.store.repo(run.repoId), workflow.path, run.headSha);
  if (!def?.runName) return null;
  const contexts = runContexts(ctx, run, def, { url: ctx.render.api, secrets: {}, vars: {} });
  try {
    return interpolate(def.runName, {
      contexts: { github: contexts.github ?? {}, inputs: contexts.inputs ?? {} },
      status: { success: true, failure: false, cancelled: false },
    });
  } catch {
    return null;
  }
}

/** Records a new run (queued) of a workflow and announces `workflow_run.requested`. */
export function newRun(
  ctx: RouteContext,
  repo: Repo,
  workflow: Workflow,
  event: string,
  branch: string,
  sha: string,
  sender: User,
  inputs: Record<string, string>,
): WorkflowRun {
  const { store, clock } = ctx;
  const number =
    [...store.workflowRuns.values()].filter((r) => r.workflowId === workflow.id).length + 1;
  const now = clock.now();
  const run: WorkflowRun = {
    id: store.id(),
    repoId: repo.id,
    workflowId: workflow.id,
    runNumber: number,
    runAttempt: 1,
    event,
    status: "queued",
    conclusion: null,
    headBranch: branch,
    headSha: sha,
    actorId: sender.id,
    triggeringActorId: sender.id,
    inputs,
    checkSuiteId: store.id(),
    createdAt: now,
    updatedAt: now,
    runStartedAt: now,
  };
  const title = displayTitle(ctx, run, workflow);
  if (title !== null) run.displayTitle = title;
  store.workflowRuns.set(run.id, run);
  announceRun(ctx, run, "requested", sender);
  return run;
}

export function actionsRoutes(ctx: RouteContext): Route[] {
  const { store, render } = ctx;
  const workflowOf = (req: RouteRequest, repo: Repo): Workflow => {
    const key = req.params.workflow_id ?? "";
    const w = workflowsOf(ctx, repo).find(
      (x) => String(x.id) === key || x.path.split("/").pop() === key,
    );
    if (!w) throw notFound();
    return w;
  };
  const listRuns = (req: RouteRequest, repo: Repo, runs: WorkflowRun[]) => {
    const status = req.query.get("status");
    const branch = req.query.get("branch");
    const event = req.query.get("event");
    const headSha = req.query.get("head_sha");
    const filtered = runs
      .filter((r) => !status || r.status === status || r.conclusion === status)
      .filter((r) => !branch || r.headBranch === branch)
      .filter((r) => !event || r.event === event)
      .filter((r) => !headSha || r.headSha === headSha)
      .sort((a, b) => b.id - a.id);
    const { page, headers } = paginate(filtered, req, `${render.repoUrl(repo)}/actions/runs`);
    return ok(
      {
        total_count: filtered.length,
        workflow_runs: page.map((r) => renderWorkflowRun(render, r)),
      },
      200,
      headers,
    );
  };
  return [
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/actions/workflows",
      operationId: "actions/list-repo-workflows",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "actions", "read");
        const all = workflowsOf(ctx, repo);
        return ok({
          total_count: all.length,
          workflows: all.map((w) => renderWorkflow(ctx, repo, w)),
        });
      },
    },
    {
      method: "POST",
      template: "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches",
      operationId: "actions/create-workflow-dispatch",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "actions", "write");
        const workflow = workflowOf(req, repo);
        const body = parseBody(dispatchBody, req.body);
        const ref = body.ref.replace(/^refs\/heads\//, "");
        const sha = repo.branches.get(ref);
        if (!sha) throw new HttpError(422, `No ref found for: ${body.ref}`);
        const inputs = Object.fromEntries(
          Object.entries(body.inputs ?? {}).map(([k, v]) => [k, String(v)]),
        );
        if (Object.keys(inputs).length > 25)
          throw new HttpError(
            422,
            "you may only define up to 25 `inputs` for a `workflow_dispatch` event",
          );
        // GitHub refuses to dispatch a workflow that does not declare the trigger, inputs it
        // does not declare, and a dispatch without a required input. An invalid file still
        // gets a run, which fails (GitHub's startup failure).
        const declared = definitionAt(ctx, repo, workflow.path, sha)?.triggers;
        if (declared && declared.dispatch === null)
          throw new HttpError(422, "Workflow does not have 'workflow_dispatch' trigger");
        if (declared?.dispatch) {
          const spec = declared.dispatch;
          const unexpected = Object.keys(inputs).filter((name) => !(name in spec));
          if (unexpected.length > 0)
            throw new HttpError(422, `Unexpected inputs provided: ${JSON.stringify(unexpected)}`);
          const missing = Object.entries(spec).find(
            ([name, s]) => s.required === true && s.default === undefined && !inputs[name],
          );
          if (missing) throw new HttpError(422, `Required input '${missing[0]}' not provided`);
        }
        const sender = actor(req.principal);
        const run = newRun(ctx, repo, workflow, "workflow_dispatch", ref, sha, sender, inputs);
        ctx.onDispatch?.(run);
        if (!body.return_run_details || ctx.dispatchRunDetails === false) return { status: 204 };
        return ok({
          workflow_run_id: run.id,
          run_url: `${render.repoUrl(repo)}/actions/runs/${run.id}`,
          html_url: `${render.repoHtml(repo)}/actions/runs/${run.id}`,
        });
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/actions/runs",
      operationId: "actions/list-workflow-runs-for-repo",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "actions", "read");
        return listRuns(
          req,
          repo,
          [...store.workflowRuns.values()].filter((r) => r.repoId === repo.id),
        );
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs",
      operationId: "actions/list-workflow-runs",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "actions", "read");
        const workflow = workflowOf(req, repo);
        return listRuns(
          req,
          repo,
          [...store.workflowRuns.values()].filter((r) => r.workflowId === workflow.id),
        );
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/actions/runs/{run_id}",
      operationId: "actions/get-workflow-run",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "actions", "read");
        const run = store.workflowRuns.get(intParam(req.params.run_id));
        if (!run || run.repoId !== repo.id) throw notFound();
        return ok(renderWorkflowRun(render, run));
      },
    },
  ];
}
