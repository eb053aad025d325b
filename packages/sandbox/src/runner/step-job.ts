import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newToken } from "../auth.ts";
import { ACTIONS_APP_ID, actionsApp } from "../ci.ts";
import { GIT_ENV } from "../git/git.ts";
import { fetchAction, readActionDir } from "./action-ref.ts";
import { interpolate, type Value } from "./expressions.ts";
import { executeJob } from "./job.ts";
import { jobClaims, refOf, runnerEnv } from "./job-env.ts";
import type { JobOutcome, JobSlot } from "./job-slot.ts";
import { chownTree, runnerUser } from "./runner-user.ts";
import { jobCacheMode } from "./runtime-tokens.ts";
import type { JobDef } from "./workflow-file.ts";

/**
 * Runs a job of steps as a GitHub-hosted runner does: a fresh working copy of the run's commit,
 * a fresh home and temp directory owned by the non-root `runner` user the steps run as, the
 * job's GITHUB_TOKEN (revoked when the job ends), the Actions runtime token for artifacts and
 * the cache, and OIDC request credentials only with `id-token: write`.
 */
export async function runStepJob(slot: JobSlot, jobDef: JobDef): Promise<JobOutcome> {
  const { input, scope, record, contexts, status, permissions } = slot;
  const { ctx, id } = input;
  const { store, clock } = ctx;
  const { repo, run } = id;
  const full = store.fullName(repo);
  const { id_token: asked, ...granted } = permissions;
  // A fork's pull_request run gets a read-only GITHUB_TOKEN and no ID token, whatever it asks.
  const idToken = run.fromFork ? undefined : asked;
  const tokenPermissions = run.fromFork
    ? Object.fromEntries(Object.keys(granted).map((k) => [k, "read" as const]))
    : granted;
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
  const user = runnerUser();
  const dir = input.root.scratch(`run-${run.id}-${record.key.replace(/[^A-Za-z0-9_-]/g, "_")}`);
  const paths = {
    workspace: join(dir, "ws"),
    temp: join(dir, "tmp"),
    home: join(dir, "home"),
    tool: join(dir, "tool"),
    eventPath: join(dir, "event.json"),
  };
  for (const d of [paths.temp, paths.home, paths.tool]) mkdirSync(d, { recursive: true });
  // A fresh working copy at the run's commit; the remote is the HTTP clone URL with no credential
  // stored (actions/checkout with persist-credentials: false).
  const git = (args: string[]) => execFileSync("git", args, { env: GIT_ENV });
  git(["clone", "--quiet", "--no-checkout", repo.gitDir, paths.workspace]);
  git(["-C", paths.workspace, "checkout", "--quiet", "-B", run.headBranch, run.headSha]);
  git(["-C", paths.workspace, "remote", "set-url", "origin", `${input.url}/${full}.git`]);
  const workflow = store.workflows.get(run.workflowId);
  writeFileSync(
    paths.eventPath,
    JSON.stringify({
      inputs: run.inputs,
      ref: refOf(run),
      after: run.headSha,
      repository: ctx.render.repo(repo, "webhook"),
      sender: ctx.render.user(store.user(run.actorId), "webhook"),
      workflow: workflow?.path ?? "",
    }),
  );
  const env = runnerEnv(ctx, id, paths, slot.key, input.url);
  const runtime = input.runtime.issue({
    runId: run.id,
    jobId: record.id,
    repoId: repo.id,
    cacheMode: jobCacheMode(
      jobDef["cache-mode"] ?? scope.def.cacheMode,
      scope.cacheCeiling,
      run.event,
    ),
  });
  env.ACTIONS_RUNTIME_TOKEN = runtime;
  env.ACTIONS_RESULTS_URL = `${input.url}/`;
  // @actions/cache appends `_apis/artifactcache/…` to this base, as to GitHub's.
  env.ACTIONS_CACHE_URL = `${input.url}/`;
  let requestToken: string | null = null;
  if (idToken === "write") {
    const creds = input.oidc.requestCredentials(jobClaims(ctx, id, scope.workflow));
    requestToken = creds.token;
    env.ACTIONS_ID_TOKEN_REQUEST_URL = creds.url;
    env.ACTIONS_ID_TOKEN_REQUEST_TOKEN = creds.token;
  }
  const github = { ...asRecord(contexts.github), token, job: slot.key };
  const secrets = { ...asRecord(contexts.secrets), GITHUB_TOKEN: token };
  const exprCtx = { contexts: { ...contexts, github, secrets }, status };
  for (const [k, v] of Object.entries({ ...scope.def.env, ...jobDef.env }))
    env[k] = interpolate(String(v), exprCtx);
  chownTree(dir, user);
  record.status = "in_progress";
  record.startedAt = clock.now();
  try {
    const result = await executeJob({
      def: jobDef,
      record,
      contexts: { ...contexts, github, secrets },
      env,
      workspace: paths.workspace,
      temp: paths.temp,
      actions: input.actions,
      minuteMs: input.minuteMs,
      signal: slot.signal,
      force: input.force,
      now: () => clock.now(),
      user: process.getuid?.() === 0 ? user : null,
      resolveAction: (uses) => {
        // `./path`: an action in the job's working copy (Workflow syntax, "uses" — local action).
        if (uses.startsWith("./")) return readActionDir(join(paths.workspace, uses), uses);
        const entry = fetchAction(store, uses, join(dir, "_actions"));
        chownTree(join(dir, "_actions"), user);
        return entry;
      },
    });
    return { result: result.conclusion, outputs: result.outputs };
  } finally {
    // GitHub revokes the job's tokens (GITHUB_TOKEN, runtime, OIDC request) when the job ends.
    store.tokens.delete(token);
    input.runtime.revoke(runtime);
    if (requestToken) input.oidc.revokeRequest(requestToken);
  }
}

function asRecord(v: Value | undefined): Record<string, Value> {
  return v && typeof v === "object" && !Array.isArray(v) ? v : {};
}
