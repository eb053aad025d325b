import { parse } from "yaml";
import { z } from "zod";

const scalar = z.union([z.string(), z.number(), z.boolean()]);
const ifField = z.union([z.string(), z.boolean()]).optional();

const step = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  uses: z.string().optional(),
  // GitHub reads `run:` as a string whatever YAML makes of it (`run: true` runs `true`).
  run: scalar.transform(String).optional(),
  with: z.record(z.string(), scalar).optional(),
  env: z.record(z.string(), scalar).optional(),
  if: ifField,
  shell: z.string().optional(),
  "working-directory": z.string().optional(),
  "timeout-minutes": z.number().positive().optional(),
  "continue-on-error": z.boolean().optional(),
});
export type StepDef = z.infer<typeof step>;

const permissions = z.union([
  z.enum(["read-all", "write-all"]),
  z.record(z.string(), z.enum(["read", "write", "none"])),
]);
export type PermissionsDef = z.infer<typeof permissions>;

const concurrency = z.union([
  z.string(),
  z.object({
    group: z.string(),
    "cancel-in-progress": z.union([z.boolean(), z.string()]).optional(),
  }),
]);

/** The job-level `cache-mode` (Workflow syntax, "jobs.<job_id>.cache-mode"). */
const cacheMode = z.enum(["read", "write", "write-only", "none"]);
export type CacheMode = z.infer<typeof cacheMode>;

const job = z.object({
  name: z.string().optional(),
  needs: z.union([z.string(), z.array(z.string())]).optional(),
  if: ifField,
  "runs-on": z.unknown().optional(),
  permissions: permissions.optional(),
  outputs: z.record(z.string(), z.string()).optional(),
  env: z.record(z.string(), scalar).optional(),
  "timeout-minutes": z.number().positive().optional(),
  "cache-mode": cacheMode.optional(),
  steps: z.array(step).min(1),
});
export type JobDef = z.infer<typeof job>;

/**
 * A job that calls a reusable workflow (Workflow syntax, "jobs.<job_id>.uses"): only the
 * keywords GitHub allows on such a job.
 */
const callJob = z.strictObject({
  name: z.string().optional(),
  uses: z.string().min(1),
  with: z.record(z.string(), scalar).optional(),
  secrets: z.union([z.literal("inherit"), z.record(z.string(), scalar)]).optional(),
  needs: z.union([z.string(), z.array(z.string())]).optional(),
  if: ifField,
  permissions: permissions.optional(),
  "cache-mode": cacheMode.optional(),
});
export type CallJobDef = z.infer<typeof callJob>;
export type AnyJobDef = JobDef | CallJobDef;

export function isCallJob(def: AnyJobDef): def is CallJobDef {
  return "uses" in def;
}

const callInput = z.object({
  description: z.string().optional(),
  required: z.boolean().optional(),
  type: z.enum(["string", "boolean", "number"]),
  default: scalar.optional(),
});
const workflowCall = z
  .object({
    inputs: z.record(z.string(), callInput).optional(),
    secrets: z
      .record(
        z.string(),
        z
          .object({ description: z.string().optional(), required: z.boolean().optional() })
          .nullable(),
      )
      .optional(),
    outputs: z
      .record(z.string(), z.object({ description: z.string().optional(), value: z.string() }))
      .optional(),
  })
  .nullable();
export type WorkflowCallDef = {
  inputs: Record<string, z.infer<typeof callInput>>;
  secrets: Record<string, { required: boolean }>;
  outputs: Record<string, string>;
};

const dispatchInput = z.object({
  description: z.string().optional(),
  required: z.boolean().optional(),
  default: scalar.optional(),
  type: z.string().optional(),
  options: z.array(z.string()).optional(),
});
const on = z.union([
  z.string(),
  z.array(z.string()),
  z
    .object({
      workflow_dispatch: z
        .object({ inputs: z.record(z.string(), dispatchInput).optional() })
        .nullable()
        .optional(),
      schedule: z.array(z.object({ cron: z.string() })).optional(),
      push: z
        .object({ branches: z.array(z.string()).optional() })
        .nullable()
        .optional(),
      pull_request: z
        .object({ branches: z.array(z.string()).optional() })
        .nullable()
        .optional(),
      workflow_call: workflowCall.optional(),
    })
    .passthrough(),
]);

const workflow = z.object({
  name: z.string().optional(),
  "run-name": z.string().optional(),
  on,
  permissions: permissions.optional(),
  env: z.record(z.string(), scalar).optional(),
  concurrency: concurrency.optional(),
  "cache-mode": cacheMode.optional(),
  jobs: z.record(z.string(), z.union([callJob, job])),
});

export interface WorkflowDef {
  name: string | undefined;
  /** `run-name`: the runs' display title, an expression over `github` and `inputs`. */
  runName: string | undefined;
  triggers: {
    dispatch: Record<string, z.infer<typeof dispatchInput>> | null;
    schedule: string[];
    push: { branches: string[] | null } | null;
    pullRequest: { branches: string[] | null } | null;
    /** `on: workflow_call`: what a caller may pass, and the outputs it gets back. */
    call: WorkflowCallDef | null;
  };
  cacheMode: CacheMode | undefined;
  permissions: PermissionsDef | undefined;
  env: Record<string, string>;
  concurrency: { group: string; cancelInProgress: boolean | string } | null;
  jobs: Record<string, AnyJobDef>;
}

const strings = (r: Record<string, string | number | boolean> | undefined) =>
  Object.fromEntries(Object.entries(r ?? {}).map(([k, v]) => [k, String(v)]));

/** Parses a workflow file (YAML → zod); throws with a readable message on what it can't run. */
export function parseWorkflow(text: string): WorkflowDef {
  const result = workflow.safeParse(parse(text));
  if (!result.success) {
    const detail = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`invalid workflow: ${detail}`);
  }
  const w = result.data;
  const events = typeof w.on === "string" ? [w.on] : Array.isArray(w.on) ? w.on : null;
  const obj = events === null && typeof w.on === "object" && !Array.isArray(w.on) ? w.on : null;
  const has = (name: string) => events?.includes(name) === true || (obj !== null && name in obj);
  for (const [key, def] of Object.entries(w.jobs)) {
    for (const need of typeof def.needs === "string" ? [def.needs] : (def.needs ?? []))
      if (!(need in w.jobs))
        throw new Error(`invalid workflow: job ${key} needs unknown job ${need}`);
  }
  return {
    name: w.name,
    runName: w["run-name"],
    triggers: {
      dispatch: has("workflow_dispatch") ? (obj?.workflow_dispatch?.inputs ?? {}) : null,
      schedule: (obj?.schedule ?? []).map((s) => s.cron),
      push: has("push") ? { branches: obj?.push?.branches ?? null } : null,
      pullRequest: has("pull_request") ? { branches: obj?.pull_request?.branches ?? null } : null,
      call: has("workflow_call")
        ? {
            inputs: obj?.workflow_call?.inputs ?? {},
            secrets: Object.fromEntries(
              Object.entries(obj?.workflow_call?.secrets ?? {}).map(([k, v]) => [
                k,
                { required: v?.required === true },
              ]),
            ),
            outputs: Object.fromEntries(
              Object.entries(obj?.workflow_call?.outputs ?? {}).map(([k, v]) => [k, v.value]),
            ),
          }
        : null,
    },
    cacheMode: w["cache-mode"],
    permissions: w.permissions,
    env: strings(w.env),
    concurrency:
      w.concurrency === undefined
        ? null
        : typeof w.concurrency === "string"
          ? { group: w.concurrency, cancelInProgress: false }
          : {
              group: w.concurrency.group,
              cancelInProgress: w.concurrency["cancel-in-progress"] ?? false,
            },
    jobs: w.jobs,
  };
}

export function needsOf(def: AnyJobDef): string[] {
  return typeof def.needs === "string" ? [def.needs] : (def.needs ?? []);
}

/**
 * A job's token permissions: the job's, else the workflow's, else GitHub's restricted default
 * (contents: read). Keys as the REST permission names (`pull-requests` → `pull_requests`).
 */
export function resolvePermissions(
  jobDef: PermissionsDef | undefined,
  workflowDef: PermissionsDef | undefined,
): Record<string, "read" | "write"> {
  const def = jobDef ?? workflowDef ?? { contents: "read" };
  const scopes = [
    "actions",
    "checks",
    "contents",
    "issues",
    "pull-requests",
    "statuses",
    "id-token",
    "packages",
    "deployments",
  ];
  const out: Record<string, "read" | "write"> = {};
  if (typeof def === "string") {
    for (const s of scopes) out[s.replace(/-/g, "_")] = def === "write-all" ? "write" : "read";
    if (def === "read-all") delete out.id_token;
  } else {
    for (const [k, v] of Object.entries(def)) if (v !== "none") out[k.replace(/-/g, "_")] = v;
  }
  out.metadata = "read";
  return out;
}

const LEVEL = { read: 1, write: 2 } as const;

/**
 * A called workflow's job permissions under its caller's (Reusing workflows, "Access and
 * permissions"): the called job's own, else the called workflow's, else the caller's; and
 * never above the caller's — permissions passed to a called workflow can only narrow.
 */
export function narrowPermissions(
  own: PermissionsDef | undefined,
  ceiling: Record<string, "read" | "write">,
): Record<string, "read" | "write"> {
  if (own === undefined) return { ...ceiling };
  const wanted = resolvePermissions(own, undefined);
  const out: Record<string, "read" | "write"> = {};
  for (const [scope, level] of Object.entries(wanted)) {
    const cap = ceiling[scope];
    if (!cap) continue;
    out[scope] = LEVEL[level] <= LEVEL[cap] ? level : cap;
  }
  return out;
}
