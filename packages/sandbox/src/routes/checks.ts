import { z } from "zod";
import { actor, requireRepoAccess } from "../auth.ts";
import { HttpError, notFound } from "../http-error.ts";
import { renderCheckRun, renderSuite } from "../render/checks.ts";
import type { Route, RouteRequest } from "../router.ts";
import { findOrCreateSuite, settleCheckSuite } from "../state/check-ops.ts";
import type { CheckRun, CheckSuite, Repo, User } from "../state/types.ts";
import { intParam, ok, parseBody, type RouteContext, repoOf } from "./context.ts";

const STATUS = z.enum(["queued", "in_progress", "completed", "waiting", "requested", "pending"]);
const CONCLUSION = z.enum([
  "action_required",
  "cancelled",
  "failure",
  "neutral",
  "success",
  "skipped",
  "stale",
  "timed_out",
]);
const output = z
  .object({ title: z.string().optional(), summary: z.string(), text: z.string().optional() })
  .passthrough();
const runFields = {
  details_url: z.string().optional(),
  external_id: z.string().optional(),
  status: STATUS.optional(),
  conclusion: CONCLUSION.optional(),
  started_at: z.string().optional(),
  completed_at: z.string().optional(),
  output: output.optional(),
};
const createRun = z.object({ name: z.string().min(1), head_sha: z.string().min(1), ...runFields });
const updateRun = z.object({ name: z.string().optional(), ...runFields });

export function checkRoutes(ctx: RouteContext): Route[] {
  const { store, render, clock, bus } = ctx;
  const appId = (req: RouteRequest): number => {
    if (req.principal.kind !== "installation")
      throw new HttpError(403, "You must authenticate via a GitHub App.");
    return req.principal.app.id;
  };
  const suiteFor = (repo: Repo, app: number, sha: string) => findOrCreateSuite(ctx, repo, app, sha);
  const settleSuite = (suite: CheckSuite, sender: User, runCompleted: boolean) =>
    settleCheckSuite(ctx, suite, sender, runCompleted);
  const apply = (run: CheckRun, body: z.infer<typeof updateRun>) => {
    if (body.name) run.name = body.name;
    if (body.details_url !== undefined) run.detailsUrl = body.details_url;
    if (body.external_id !== undefined) run.externalId = body.external_id;
    if (body.output)
      run.output = {
        title: body.output.title ?? null,
        summary: body.output.summary,
        text: body.output.text ?? null,
      };
    if (body.started_at) run.startedAt = Date.parse(body.started_at);
    if (body.status) run.status = body.status;
    if (body.conclusion) {
      run.conclusion = body.conclusion;
      run.status = "completed";
    }
    if (run.status === "completed") {
      if (!run.conclusion)
        throw new HttpError(422, "Validation Failed", {
          errors: [{ resource: "CheckRun", field: "conclusion", code: "missing_field" }],
        });
      run.completedAt = body.completed_at ? Date.parse(body.completed_at) : clock.now();
    }
  };
  const runOf = (req: RouteRequest, repo: Repo): CheckRun => {
    const run = store.checkRuns.get(intParam(req.params.check_run_id));
    if (!run || run.repoId !== repo.id) throw notFound();
    return run;
  };
  const shaOf = (repo: Repo, ref: string) => repo.branches.get(ref) ?? ref;
  return [
    {
      method: "POST",
      template: "/repos/{owner}/{repo}/check-runs",
      operationId: "checks/create",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "checks", "write");
        const body = parseBody(createRun, req.body);
        const suite = suiteFor(repo, appId(req), body.head_sha);
        const run: CheckRun = {
          id: store.id(),
          suiteId: suite.id,
          repoId: repo.id,
          appId: suite.appId,
          name: body.name,
          headSha: body.head_sha,
          status: "queued",
          conclusion: null,
          startedAt: clock.now(),
          completedAt: null,
          externalId: null,
          detailsUrl: null,
          output: { title: null, summary: null, text: null },
        };
        apply(run, body);
        store.checkRuns.set(run.id, run);
        const sender = actor(req.principal);
        bus.emit("check_run", repo, sender, {
          action: "created",
          check_run: renderCheckRun(render, run, "webhook"),
        });
        if (run.status === "completed")
          bus.emit("check_run", repo, sender, {
            action: "completed",
            check_run: renderCheckRun(render, run, "webhook"),
          });
        settleSuite(suite, sender, run.status === "completed");
        return ok(renderCheckRun(render, run), 201);
      },
    },
    {
      method: "PATCH",
      template: "/repos/{owner}/{repo}/check-runs/{check_run_id}",
      operationId: "checks/update",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "checks", "write");
        const run = runOf(req, repo);
        if (run.appId !== appId(req))
          throw new HttpError(
            403,
            "Invalid app_id `" +
              appId(req) +
              "` - check run can only be modified by the GitHub App that created it.",
          );
        const wasDone = run.status === "completed";
        apply(run, parseBody(updateRun, req.body));
        // Only a run that was not completed completes its suite anew: a conclusion or output
        // written again on a completed run announces nothing.
        const completes = !wasDone && run.status === "completed";
        const sender = actor(req.principal);
        if (completes) {
          bus.emit("check_run", repo, sender, {
            action: "completed",
            check_run: renderCheckRun(render, run, "webhook"),
          });
        }
        const suite = store.checkSuites.get(run.suiteId);
        if (suite) settleSuite(suite, sender, completes);
        return ok(renderCheckRun(render, run));
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/check-runs/{check_run_id}",
      operationId: "checks/get",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "checks", "read");
        return ok(renderCheckRun(render, runOf(req, repo)));
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/commits/{ref}/check-runs",
      operationId: "checks/list-for-ref",
      auth: "public",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "checks", "read");
        const sha = shaOf(repo, req.params.ref ?? "");
        const name = req.query.get("check_name");
        const runs = [...store.checkRuns.values()].filter(
          (r) => r.repoId === repo.id && r.headSha === sha && (!name || r.name === name),
        );
        return ok({
          total_count: runs.length,
          check_runs: runs.map((r) => renderCheckRun(render, r)),
        });
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/commits/{ref}/check-suites",
      operationId: "checks/list-suites-for-ref",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "checks", "read");
        const sha = shaOf(repo, req.params.ref ?? "");
        const suites = [...store.checkSuites.values()].filter(
          (s) => s.repoId === repo.id && s.headSha === sha,
        );
        return ok({
          total_count: suites.length,
          check_suites: suites.map((s) => renderSuite(render, s)),
        });
      },
    },
    {
      method: "POST",
      template: "/repos/{owner}/{repo}/check-suites",
      operationId: "checks/create-suite",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "checks", "write");
        const { head_sha } = parseBody(z.object({ head_sha: z.string().min(1) }), req.body);
        const existed = [...store.checkSuites.values()].some(
          (s) => s.repoId === repo.id && s.headSha === head_sha && s.appId === appId(req),
        );
        const suite = suiteFor(repo, appId(req), head_sha);
        return ok(renderSuite(render, suite), existed ? 200 : 201);
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/check-suites/{check_suite_id}",
      operationId: "checks/get-suite",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "checks", "read");
        const suite = store.checkSuites.get(intParam(req.params.check_suite_id));
        if (!suite || suite.repoId !== repo.id) throw notFound();
        return ok(renderSuite(render, suite));
      },
    },
  ];
}
