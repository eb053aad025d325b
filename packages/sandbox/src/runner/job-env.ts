import type { ActionsClaims } from "../oidc.ts";
import type { RouteContext } from "../routes/context.ts";
import type { Repo, WorkflowRun } from "../state/types.ts";

/** The workflow a job's steps come from: the run's own file, or a reusable one it called. */
export interface JobWorkflow {
  /** `owner/repo/.github/workflows/f.yml@<ref>`: the ref as the caller named it. */
  ref: string;
  /** The commit the workflow file was read at. */
  sha: string;
}

/** The caller's run as a job sees it (the `github` context never changes across a call). */
export interface RunIdentity {
  repo: Repo;
  run: WorkflowRun;
  /** The run's own workflow: `owner/repo/.github/workflows/f.yml@refs/heads/<branch>`. */
  workflowRef: string;
  workflowName: string;
}

export function refOf(run: WorkflowRun): string {
  return `refs/heads/${run.headBranch}`;
}

/**
 * The ID token claims GitHub mints for a job (OpenID Connect reference, "OIDC token claims";
 * Using OpenID Connect with reusable workflows, "How the token works with reusable
 * workflows"): everything describes the caller's run — its workflow, event, ref and run ids —
 * except `job_workflow_ref`/`job_workflow_sha`, which name the workflow file the job's steps
 * came from at the ref its caller named. `sub` has the immutable-id form GitHub uses for
 * repositories created since July 2026: `repo:<owner>@<owner_id>/<repo>@<repo_id>:ref:<ref>`.
 */
export function jobClaims(
  ctx: RouteContext,
  id: RunIdentity,
  job: JobWorkflow,
): Partial<ActionsClaims> {
  const { store } = ctx;
  const { repo, run } = id;
  const owner = store.user(repo.ownerId);
  const actor = store.user(run.actorId);
  const ref = refOf(run);
  return {
    sub: `repo:${owner.login}@${owner.id}/${repo.name}@${repo.id}:ref:${ref}`,
    repository: store.fullName(repo),
    repository_id: String(repo.id),
    repository_owner: owner.login,
    repository_owner_id: String(owner.id),
    repository_visibility: repo.private ? "private" : "public",
    actor: actor.login,
    actor_id: String(actor.id),
    workflow: id.workflowName,
    workflow_ref: id.workflowRef,
    workflow_sha: run.headSha,
    job_workflow_ref: job.ref,
    job_workflow_sha: job.sha,
    event_name: run.event,
    ref,
    ref_type: "branch",
    sha: run.headSha,
    run_id: String(run.id),
    run_number: String(run.runNumber),
    run_attempt: String(run.runAttempt),
    runner_environment: "github-hosted",
  };
}

/** The `GITHUB_*` and `RUNNER_*` variables a hosted runner sets for every step. */
export function runnerEnv(
  ctx: RouteContext,
  id: RunIdentity,
  paths: { workspace: string; temp: string; home: string; eventPath: string; tool: string },
  job: string,
  url: string,
): Record<string, string> {
  const { store } = ctx;
  const { repo, run } = id;
  const actor = store.user(run.actorId);
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: paths.home,
    USER: "runner",
    LANG: "C.UTF-8",
    TMPDIR: paths.temp,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_REPOSITORY: store.fullName(repo),
    GITHUB_REPOSITORY_ID: String(repo.id),
    GITHUB_REPOSITORY_OWNER: store.user(repo.ownerId).login,
    GITHUB_REPOSITORY_OWNER_ID: String(repo.ownerId),
    GITHUB_RUN_ID: String(run.id),
    GITHUB_RUN_NUMBER: String(run.runNumber),
    GITHUB_RUN_ATTEMPT: String(run.runAttempt),
    GITHUB_SHA: run.headSha,
    GITHUB_REF: refOf(run),
    GITHUB_REF_NAME: run.headBranch,
    GITHUB_REF_TYPE: "branch",
    GITHUB_EVENT_NAME: run.event,
    GITHUB_EVENT_PATH: paths.eventPath,
    GITHUB_WORKSPACE: paths.workspace,
    GITHUB_API_URL: url,
    GITHUB_SERVER_URL: url,
    GITHUB_GRAPHQL_URL: `${url}/graphql`,
    GITHUB_ACTOR: actor.login,
    GITHUB_ACTOR_ID: String(actor.id),
    GITHUB_TRIGGERING_ACTOR: store.user(run.triggeringActorId).login,
    GITHUB_WORKFLOW: id.workflowName,
    GITHUB_WORKFLOW_REF: id.workflowRef,
    GITHUB_WORKFLOW_SHA: run.headSha,
    GITHUB_JOB: job,
    GITHUB_RETENTION_DAYS: "90",
    RUNNER_TEMP: paths.temp,
    RUNNER_TOOL_CACHE: paths.tool,
    RUNNER_OS: "Linux",
    RUNNER_ARCH: "X64",
    RUNNER_NAME: "sandbox-runner",
    RUNNER_ENVIRONMENT: "github-hosted",
  };
}
