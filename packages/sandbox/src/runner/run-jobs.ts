import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newToken } from "../auth.ts";
import { ACTIONS_APP_ID, actionsApp } from "../ci.ts";
import { GIT_ENV } from "../git/git.ts";
import type { GitRoot } from "../git/root.ts";
import type { ActionsClaims, OidcIssuer } from "../oidc.ts";
import type { RouteContext } from "../routes/context.ts";
import type { WorkflowJob, WorkflowRun } from "../state/types.ts";
import { condition, interpolate, type Value } from "./expressions.ts";
import { type ActionSpec, executeJob } from "./job.ts";
import { needsOf, resolvePermissions, type WorkflowDef } from "./workflow-file.ts";

export interface RunJobsInput {
  ctx: RouteContext;
  root: GitRoot;
  oidc: OidcIssuer;
  url: string;
  run: WorkflowRun;
  def: WorkflowDef;
  contexts: Record<string, Value>;
  actions: Record<string, ActionSpec>;
  minuteMs: number;
  signal: AbortSignal;
  stopping: () => boolean;
}

type JobOutcome = {
  result: "success" | "failure" | "cancelled" | "skipped";
  outputs: Record<string, string>;
};

/** Runs a run's jobs as their `needs` allow (independent jobs in parallel); returns the run's conclusion. */
export async function runJobs(input: RunJobsInput): Promise<"success" | "failure" | "cancelled"> {
  const { def } = input;
  const results = new Map<string, Promise<JobOutcome>>();
  const get = (key: string): Promise<JobOutcome> => {
    let p = results.get(key);
    if (!p) {
      p = runOne(input, key, get);
      results.set(key, p);
    }
    return p;
  };
  const outcomes = await Promise.all(Object.keys(def.jobs).map(get));
  if (outcomes.some((o) => o.result === "failure")) return "failure";
  if (outcomes.some((o) => o.result === "cancelled")) return "cancelled";
  return "success";
}

async function runOne(
  input: RunJobsInput,
  key: string,
  get: (key: string) => Promise<JobOutcome>,
): Promise<JobOutcome> {
  const { ctx, run, def, signal } = input;
  const { store, clock } = ctx;
  const jobDef = def.jobs[key];
  if (!jobDef) return { result: "skipped", outputs: {} };
  const needs = needsOf(jobDef);
  const deps = await Promise.all(needs.map(get));
  const record: WorkflowJob = {
    id: store.id(),
    runId: run.id,
    repoId: run.repoId,
    key,
    name: jobDef.name ?? key,
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
  store.workflowJobs.set(record.id, record);
  const needsCtx: Record<string, Value> = {};
  needs.forEach((n, i) => {
    needsCtx[n] = { result: deps[i]?.result ?? "skipped", outputs: deps[i]?.outputs ?? {} };
  });
  const status = {
    success: deps.every((d) => d.result === "success"),
    failure: deps.some((d) => d.result === "failure"),
    cancelled: signal.aborted,
  };
  const finish = (result: JobOutcome["result"], outputs: Record<string, string>): JobOutcome => {
    record.status = "completed";
    record.conclusion = result;
    record.completedAt = clock.now();
    record.outputs = outputs;
    return { result, outputs };
  };
  const contexts: Record<string, Value> = { ...input.contexts, needs: needsCtx };
  if (input.stopping() || !condition(jobDef.if, { contexts, status })) return finish("skipped", {});

  const repo = store.repo(run.repoId);
  const full = store.fullName(repo);
  const workflow = store.workflows.get(run.workflowId);
  const permissions = resolvePermissions(jobDef.permissions, def.permissions);
  const { id_token: idToken, ...tokenPermissions } = permissions;
  // The job's GITHUB_TOKEN: github-actions[bot], this repository only, the job's permissions.
  const bot = store.user(actionsApp(ctx, ACTIONS_APP_ID).botUserId);
  const token = newToken("ghs");
  store.tokens.set(token, {
    token,
    kind: "job",
    installationId: null,
    userId: bot.id,
    expiresAt: clock.now() + 24 * 3_600_000,
    permissions: tokenPermissions,
    repositoryIds: [repo.id],
  });
  const ref = `refs/heads/${run.headBranch}`;
  const workflowRef = `${full}/${workflow?.path ?? ""}@${ref}`;
  const actor = store.user(run.actorId);
  const dir = input.root.scratch(`run-${run.id}-${key}`);
  const workspace = join(dir, "ws");
  const temp = join(dir, "tmp");
  const artifacts = join(input.root.path, "artifacts", String(run.id));
  mkdirSync(temp, { recursive: true });
  mkdirSync(artifacts, { recursive: true });
  // A fresh working copy at the run's commit; the remote is the HTTP clone URL with no credential
  // stored (actions/checkout with persist-credentials: false).
  execFileSync("git", ["clone", "--quiet", "--no-checkout", repo.gitDir, workspace], {
    env: GIT_ENV,
  });
  execFileSync("git", ["-C", workspace, "checkout", "--quiet", "-B", run.headBranch, run.headSha], {
    env: GIT_ENV,
  });
  execFileSync(
    "git",
    ["-C", workspace, "remote", "set-url", "origin", `${input.url}/${full}.git`],
    { env: GIT_ENV },
  );
  const eventPath = join(dir, "event.json");
  writeFileSync(
    eventPath,
    JSON.stringify({
      inputs: run.inputs,
      ref,
      after: run.headSha,
      repository: ctx.render.repo(repo, "webhook"),
      sender: ctx.render.user(actor, "webhook"),
      workflow: workflow?.path ?? "",
    }),
  );
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? dir,
    LANG: "C.UTF-8",
    TMPDIR: temp,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_REPOSITORY: full,
    GITHUB_REPOSITORY_ID: String(repo.id),
    GITHUB_REPOSITORY_OWNER: store.user(repo.ownerId).login,
    GITHUB_REPOSITORY_OWNER_ID: String(repo.ownerId),
    GITHUB_RUN_ID: String(run.id),
    GITHUB_RUN_NUMBER: String(run.runNumber),
    GITHUB_RUN_ATTEMPT: String(run.runAttempt),
    GITHUB_SHA: run.headSha,
    GITHUB_REF: ref,
    GITHUB_REF_NAME: run.headBranch,
    GITHUB_REF_TYPE: "branch",
    GITHUB_EVENT_NAME: run.event,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_WORKSPACE: workspace,
    GITHUB_API_URL: input.url,
    GITHUB_SERVER_URL: input.url,
    GITHUB_GRAPHQL_URL: `${input.url}/graphql`,
    GITHUB_ACTOR: actor.login,
    GITHUB_ACTOR_ID: String(actor.id),
    GITHUB_TRIGGERING_ACTOR: store.user(run.triggeringActorId).login,
    GITHUB_WORKFLOW: def.name ?? workflow?.path ?? "",
    GITHUB_WORKFLOW_REF: workflowRef,
    GITHUB_WORKFLOW_SHA: run.headSha,
    GITHUB_JOB: key,
    GITHUB_RETENTION_DAYS: "90",
    RUNNER_TEMP: temp,
    RUNNER_OS: "Linux",
    RUNNER_ARCH: "X64",
    RUNNER_NAME: "sandbox-runner",
    RUNNER_ENVIRONMENT: "github-hosted",
    // Sandbox stand-in for the Actions artifact service: one directory per run, shared by its jobs.
    LOOPX_SANDBOX_ARTIFACTS: artifacts,
  };
  let requestToken: string | null = null;
  if (idToken === "write") {
    const claims: Partial<ActionsClaims> = {
      sub: `repo:${full}:ref:${ref}`,
      repository: full,
      repository_id: String(repo.id),
      repository_owner: store.user(repo.ownerId).login,
      repository_owner_id: String(repo.ownerId),
      repository_visibility: repo.private ? "private" : "public",
      actor: actor.login,
      actor_id: String(actor.id),
      workflow: def.name ?? workflow?.path ?? "",
      workflow_ref: workflowRef,
      workflow_sha: run.headSha,
      job_workflow_ref: workflowRef,
      job_workflow_sha: run.headSha,
      event_name: run.event,
      ref,
      sha: run.headSha,
      run_id: String(run.id),
      run_number: String(run.runNumber),
      run_attempt: String(run.runAttempt),
    };
    const creds = input.oidc.requestCredentials(claims);
    requestToken = creds.token;
    env.ACTIONS_ID_TOKEN_REQUEST_URL = creds.url;
    env.ACTIONS_ID_TOKEN_REQUEST_TOKEN = creds.token;
  }
  const github = { ...asRecord(contexts.github), token, job: key };
  const secrets = { ...asRecord(contexts.secrets), GITHUB_TOKEN: token };
  const exprCtx = { contexts: { ...contexts, github, secrets }, status };
  for (const [k, v] of Object.entries({ ...def.env, ...jobDef.env }))
    env[k] = interpolate(String(v), exprCtx);
  record.status = "in_progress";
  record.startedAt = clock.now();
  try {
    const result = await executeJob({
      def: jobDef,
      record,
      contexts: { ...contexts, github, secrets },
      env,
      workspace,
      temp,
      actions: input.actions,
      minuteMs: input.minuteMs,
      signal,
      now: () => clock.now(),
    });
    return finish(result.conclusion, result.outputs);
  } finally {
    // GitHub revokes the job's token (and its OIDC request token) when the job ends.
    store.tokens.delete(token);
    if (requestToken) input.oidc.revokeRequest(requestToken);
  }
}

function asRecord(v: Value | undefined): Record<string, Value> {
  return v && typeof v === "object" && !Array.isArray(v) ? v : {};
}
