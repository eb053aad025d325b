import { interpolate, type Value } from "./expressions.ts";
import { conclusionOf, type JobOutcome, type JobSlot, type WorkflowScope } from "./job-slot.ts";
import { resolveUses, UsesError } from "./resolve-uses.ts";
import { jobCacheMode } from "./runtime-tokens.ts";
import { type CallJobDef, parseWorkflow, type WorkflowDef } from "./workflow-file.ts";

/**
 * GitHub's limits on reusable workflows (Reuse workflows, "Nesting reusable workflows":
 * ten levels on github.com, the top-level caller included; Reusable workflows reference,
 * "Limitations": at most 20 unique reusable workflows from one workflow file, nested ones
 * included).
 */
export const MAX_WORKFLOW_LEVELS = 10;
export const MAX_UNIQUE_CALLED = 20;

const LOCAL = /^\.\/(\.github\/workflows\/[^/@]+\.ya?ml)$/;
const REMOTE = /^[^/@]+\/[^/@]+\/\.github\/workflows\/[^/@]+\.ya?ml@[^@]+$/;

/** The called workflow: its definition, where it lives, and `job_workflow_ref` for its jobs. */
interface Called {
  def: WorkflowDef;
  ref: string;
  sha: string;
  ownerId: number;
  isPrivate: boolean;
  label: string;
}

function resolveCalled(slot: JobSlot, uses: string): Called {
  const { store } = slot.input.ctx;
  const local = LOCAL.exec(uses);
  if (local) {
    // `./.github/workflows/f.yml`: the caller's own repository, at the caller's commit.
    const { repo, run } = slot.input.id;
    const path = local[1] ?? "";
    const text = store.git(repo).readFile(run.headSha, path);
    if (text === null) throw new UsesError(`'${uses}' was not found at ${run.headSha}`);
    return {
      def: parseWorkflow(text),
      ref: `${store.fullName(repo)}/${path}@refs/heads/${run.headBranch}`,
      sha: run.headSha,
      ownerId: repo.ownerId,
      isPrivate: repo.private,
      label: `${store.fullName(repo)}/${path}@${run.headSha}`,
    };
  }
  if (!REMOTE.test(uses)) {
    throw new UsesError(
      `invalid value workflow reference: '${uses}' (use {owner}/{repo}/.github/workflows/{file}@{ref} or ./.github/workflows/{file})`,
    );
  }
  const found = resolveUses(store, uses);
  const text = found.git.readFile(found.sha, found.path);
  if (text === null)
    throw new UsesError(
      `error parsing called workflow "${uses}": failed to fetch workflow: workflow was not found.`,
    );
  const full = store.fullName(found.repo);
  return {
    def: parseWorkflow(text),
    ref: `${full}/${found.path}@${found.ref}`,
    sha: found.sha,
    ownerId: found.repo.ownerId,
    isPrivate: found.repo.private,
    label: `${full}/${found.path}@${found.sha}`,
  };
}

/**
 * The called workflow's `inputs` from the caller's `with:` (Workflow syntax,
 * "on.workflow_call.inputs"): declared names only, typed, defaults applied, required ones given.
 */
function callInputs(
  slot: JobSlot,
  job: CallJobDef,
  def: WorkflowDef,
  uses: string,
): Record<string, Value> {
  const declared = def.triggers.call?.inputs ?? {};
  const ctx = { contexts: slot.contexts, status: slot.status };
  for (const name of Object.keys(job.with ?? {}))
    if (!(name in declared))
      throw new UsesError(
        `Invalid input, ${name} is not defined in the referenced workflow "${uses}".`,
      );
  const out: Record<string, Value> = {};
  for (const [name, spec] of Object.entries(declared)) {
    const given = job.with?.[name];
    if (given === undefined && spec.required && spec.default === undefined)
      throw new UsesError(`Input ${name} is required, but not provided while calling "${uses}".`);
    const raw =
      given === undefined
        ? spec.default
        : typeof given === "string"
          ? interpolate(given, ctx)
          : given;
    const text = raw === undefined ? "" : String(raw);
    if (spec.type === "boolean") out[name] = text === "true";
    else if (spec.type === "number") out[name] = text === "" ? 0 : Number(text);
    else out[name] = text;
  }
  return out;
}

/**
 * The called workflow's `secrets` (Reuse workflows, "Passing inputs and secrets to a reusable
 * workflow"): named ones as the caller maps them, or with `secrets: inherit` all of the
 * caller's — but inheritance works only within an organization or enterprise (modelled as
 * the same owner account): across owners it passes nothing, silently.
 */
function callSecrets(
  slot: JobSlot,
  job: CallJobDef,
  called: Called,
  uses: string,
): Record<string, Value> {
  const mine = slot.contexts.secrets;
  const callerSecrets = mine && typeof mine === "object" && !Array.isArray(mine) ? mine : {};
  const declared = called.def.triggers.call?.secrets ?? {};
  if (job.secrets === "inherit")
    return called.ownerId === slot.input.id.repo.ownerId ? { ...callerSecrets } : {};
  const out: Record<string, Value> = {};
  const ctx = { contexts: slot.contexts, status: slot.status };
  for (const [name, value] of Object.entries(job.secrets ?? {})) {
    if (!(name in declared))
      throw new UsesError(
        `Invalid secret, ${name} is not defined in the referenced workflow "${uses}".`,
      );
    out[name] = interpolate(String(value), ctx);
  }
  for (const [name, spec] of Object.entries(declared))
    if (spec.required && !out[name])
      throw new UsesError(`Secret ${name} is required, but not provided while calling "${uses}".`);
  return out;
}

/**
 * Runs a job's `uses: owner/repo/.github/workflows/f.yml@ref` as GitHub does (Reuse workflows;
 * Reusable workflows reference): the called workflow's jobs run in the caller's run with the
 * caller's `github` context, permissions narrowed by the caller job's, the inputs and secrets
 * passed; its `outputs` become the caller job's. A public caller may call public workflows only.
 */
export async function runCalledWorkflow(slot: JobSlot, job: CallJobDef): Promise<JobOutcome> {
  const { input, scope, record } = slot;
  const fail = (message: string): JobOutcome => {
    // The error shows on the run like GitHub's annotation for an invalid workflow.
    record.log += `##[error]${message}\n`;
    input.ctx.store.workflowJobs.set(record.id, record);
    return { result: "failure", outputs: {} };
  };
  let called: Called;
  let inputs: Record<string, Value>;
  let secrets: Record<string, Value>;
  try {
    called = resolveCalled(slot, job.uses);
    if (!called.def.triggers.call)
      return fail(`"${job.uses}" is not a reusable workflow: it has no on.workflow_call trigger.`);
    if (!input.id.repo.private && called.isPrivate)
      return fail(
        `"${job.uses}": a public repository's workflow can call reusable workflows in public repositories only.`,
      );
    if (called.isPrivate && called.ownerId !== input.id.repo.ownerId)
      return fail(
        `"${job.uses}": workflow was not found (its repository does not share its workflows with this one).`,
      );
    if (scope.depth + 1 > MAX_WORKFLOW_LEVELS)
      return fail(
        `"${job.uses}": reusable workflows can be nested at most ${MAX_WORKFLOW_LEVELS} levels deep.`,
      );
    input.called.add(called.label);
    if (input.called.size > MAX_UNIQUE_CALLED)
      return fail(
        `"${job.uses}": a workflow can call at most ${MAX_UNIQUE_CALLED} unique reusable workflows.`,
      );
    inputs = callInputs(slot, job, called.def, job.uses);
    secrets = callSecrets(slot, job, called, job.uses);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  const child: WorkflowScope = {
    def: called.def,
    contexts: {
      github: scope.contexts.github ?? {},
      vars: scope.contexts.vars ?? {},
      inputs,
      secrets,
    },
    workflow: { ref: called.ref, sha: called.sha },
    ceiling: slot.permissions,
    depth: scope.depth + 1,
    keyPrefix: `${record.key}/`,
    namePrefix: `${record.name} / `,
    cacheCeiling: jobCacheMode(
      job["cache-mode"] ?? scope.def.cacheMode,
      scope.cacheCeiling,
      input.id.run.event,
    ),
  };
  const results = await slot.runJobs({ ...input, signal: slot.signal }, child);
  const jobs: Record<string, Value> = {};
  for (const [key, o] of results) jobs[key] = { result: o.result, outputs: o.outputs };
  const outputs: Record<string, string> = {};
  const ctx = { contexts: { ...child.contexts, jobs }, status: slot.status };
  for (const [name, expr] of Object.entries(called.def.triggers.call.outputs))
    outputs[name] = interpolate(expr, ctx);
  const all = [...results.values()];
  const result = all.every((o) => o.result === "skipped") ? "success" : conclusionOf(all);
  return { result, outputs };
}
