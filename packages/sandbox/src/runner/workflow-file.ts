import { parse } from "yaml";
import { z } from "zod";

const scalar = z.union([z.string(), z.number(), z.boolean()]);
const ifField = z.union([z.string(), z.boolean()]).optional();

const step = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  uses: z.string().optional(),
  run: z.string().optional(),
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

const job = z.object({
  name: z.string().optional(),
  needs: z.union([z.string(), z.array(z.string())]).optional(),
  if: ifField,
  "runs-on": z.unknown().optional(),
  permissions: permissions.optional(),
  outputs: z.record(z.string(), z.string()).optional(),
  env: z.record(z.string(), scalar).optional(),
  "timeout-minutes": z.number().positive().optional(),
  steps: z.array(step).min(1),
});
export type JobDef = z.infer<typeof job>;

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
    })
    .passthrough(),
]);

const workflow = z.object({
  name: z.string().optional(),
  on,
  permissions: permissions.optional(),
  env: z.record(z.string(), scalar).optional(),
  concurrency: concurrency.optional(),
  jobs: z.record(z.string(), job),
});

export interface WorkflowDef {
  name: string | undefined;
  triggers: {
    dispatch: Record<string, z.infer<typeof dispatchInput>> | null;
    schedule: string[];
    push: { branches: string[] | null } | null;
  };
  permissions: PermissionsDef | undefined;
  env: Record<string, string>;
  concurrency: { group: string; cancelInProgress: boolean | string } | null;
  jobs: Record<string, JobDef>;
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
    triggers: {
      dispatch: has("workflow_dispatch") ? (obj?.workflow_dispatch?.inputs ?? {}) : null,
      schedule: (obj?.schedule ?? []).map((s) => s.cron),
      push: has("push") ? { branches: obj?.push?.branches ?? null } : null,
    },
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

export function needsOf(def: JobDef): string[] {
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
