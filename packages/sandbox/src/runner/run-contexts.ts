import type { RouteContext } from "../routes/context.ts";
import type { WorkflowRun } from "../state/types.ts";
import type { Value } from "./expressions.ts";
import type { WorkflowDef } from "./workflow-file.ts";

/** The `github`, `inputs`, `secrets` and `vars` contexts of a run (Contexts reference). */
export function runContexts(
  ctx: RouteContext,
  run: WorkflowRun,
  def: WorkflowDef,
  from: { url: string; secrets: Record<string, string>; vars: Record<string, string> },
): Record<string, Value> {
  const { store } = ctx;
  const repo = store.repo(run.repoId);
  const workflow = store.workflows.get(run.workflowId);
  const full = store.fullName(repo);
  const inputs: Record<string, Value> = {};
  for (const [name, spec] of Object.entries(def.triggers.dispatch ?? {})) {
    const given = run.inputs[name] ?? (spec.default !== undefined ? String(spec.default) : "");
    inputs[name] = spec.type === "boolean" ? given === "true" : given;
  }
  for (const [name, value] of Object.entries(run.inputs))
    if (!(name in inputs)) inputs[name] = value;
  const ref = `refs/heads/${run.headBranch}`;
  return {
    github: {
      repository: full,
      repository_id: String(repo.id),
      repository_owner: store.user(repo.ownerId).login,
      repository_owner_id: String(repo.ownerId),
      event_name: run.event,
      ref,
      ref_name: run.headBranch,
      ref_type: "branch",
      sha: run.headSha,
      run_id: String(run.id),
      run_number: String(run.runNumber),
      run_attempt: String(run.runAttempt),
      actor: store.user(run.actorId).login,
      actor_id: String(run.actorId),
      triggering_actor: store.user(run.triggeringActorId).login,
      workflow: def.name ?? workflow?.path ?? "",
      workflow_ref: `${full}/${workflow?.path ?? ""}@${ref}`,
      workflow_sha: run.headSha,
      server_url: from.url,
      api_url: from.url,
      event: { inputs: run.inputs },
    },
    inputs,
    // Events that trigger workflows, "pull_request": a fork's PR gets no secrets (GITHUB_TOKEN aside).
    secrets: run.fromFork ? {} : { ...from.secrets },
    vars: { ...from.vars },
  };
}

export function globMatch(pattern: string, value: string): boolean {
  const re = pattern
    .split("**")
    .map((part) => part.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*"))
    .join(".*");
  return new RegExp(`^${re}$`).test(value);
}
