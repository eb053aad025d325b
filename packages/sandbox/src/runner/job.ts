import { chownSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { runProcess } from "../proc.ts";
import type { WorkflowJob, WorkflowStep } from "../state/types.ts";
import type { ActionEntry } from "./action-ref.ts";
import { condition, type ExprContext, interpolate, type Value } from "./expressions.ts";
import { inputEnvName, parseFileCommand } from "./files.ts";
import type { JobDef, StepDef } from "./workflow-file.ts";

/** A `uses:` target: a local entry file run with node (`.ts` through tsx), with input defaults. */
export type ActionSpec = string | { entry: string; inputs?: Record<string, string> };

export interface JobRun {
  def: JobDef;
  record: WorkflowJob;
  /** github, inputs, needs, secrets, vars, env. */
  contexts: Record<string, Value>;
  /** The runner's env for every step (GITHUB_*, RUNNER_*, OIDC request vars when granted). */
  env: Record<string, string>;
  workspace: string;
  temp: string;
  actions: Record<string, ActionSpec>;
  /** Real milliseconds per `timeout-minutes` minute (60 000 unless a test shortens it). */
  minuteMs: number;
  /** Cancels gracefully (SIGINT, SIGTERM, tree kill); `force` kills at once. */
  signal: AbortSignal;
  force: AbortSignal;
  now: () => number;
  /** The account steps run as (null: the sandbox's own, when it cannot switch users). */
  user: { uid: number; gid: number } | null;
  /** An action not in `actions`, fetched by reference (throws to fail the step). */
  resolveAction: (uses: string) => ActionEntry;
}

export interface JobResult {
  conclusion: "success" | "failure" | "cancelled";
  outputs: Record<string, string>;
}

const TSX = import.meta.resolve("tsx/esm");

/**
 * Runs a job's steps in order as a runner does: `if:` per step, `run:` through bash
 * (`-eo pipefail`), `uses:` as a node child process with INPUT_*, file commands (GITHUB_OUTPUT,
 * GITHUB_ENV, GITHUB_STEP_SUMMARY) read back after each step, `timeout-minutes` per step and
 * per job (the step's process group is killed), and job outputs evaluated at the end.
 */
export async function executeJob(job: JobRun): Promise<JobResult> {
  const { def, record } = job;
  const steps: Record<
    string,
    { outputs: Record<string, string>; outcome: string; conclusion: string }
  > = {};
  const extraEnv: Record<string, string> = {};
  let failed = false;
  let jobTimedOut = false;
  const deadline =
    // Timeouts are real time (they kill real processes); records use the simulated clock.
    def["timeout-minutes"] !== undefined
      ? Date.now() + def["timeout-minutes"] * job.minuteMs
      : null;
  const commands = join(job.temp, "_runner_file_commands");
  mkdirSync(commands, { recursive: true });
  const own = (path: string) => {
    if (job.user) chownSync(path, job.user.uid, job.user.gid);
  };
  own(commands);
  const pathAdded: string[] = [];
  const ctxFor = (): ExprContext => ({
    contexts: {
      ...job.contexts,
      env: { ...job.env, ...extraEnv },
      steps,
      runner: { os: "Linux", arch: "X64", temp: job.temp },
    },
    status: { success: !failed, failure: failed, cancelled: job.signal.aborted || jobTimedOut },
  });
  record.steps = def.steps.map(
    (s, i): WorkflowStep => ({
      name: s.name ?? (s.uses ? `Run ${s.uses}` : `Run ${(s.run ?? "").split("\n")[0]}`),
      number: i + 1,
      status: "queued",
      conclusion: null,
      startedAt: null,
      completedAt: null,
    }),
  );
  for (const [index, step] of def.steps.entries()) {
    const rec = record.steps[index];
    if (!rec) continue;
    const ctx = ctxFor();
    if (jobTimedOut || !condition(step.if, ctx)) {
      rec.status = "completed";
      rec.conclusion = "skipped";
      if (step.id) steps[step.id] = { outputs: {}, outcome: "skipped", conclusion: "skipped" };
      continue;
    }
    rec.status = "in_progress";
    rec.startedAt = job.now();
    const files = {
      GITHUB_OUTPUT: join(commands, `set_output_${index}`),
      GITHUB_ENV: join(commands, `set_env_${index}`),
      GITHUB_STEP_SUMMARY: join(commands, `step_summary_${index}`),
      GITHUB_PATH: join(commands, `add_path_${index}`),
    };
    for (const f of Object.values(files)) {
      writeFileSync(f, "");
      own(f);
    }
    const stepEnv = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([k, v]) => [k, interpolate(String(v), ctx)]),
    );
    const env: Record<string, string> = {
      ...job.env,
      ...extraEnv,
      ...stepEnv,
      ...files,
      GITHUB_ACTION: step.id ?? `__run_${index}`,
    };
    // GITHUB_PATH entries of earlier steps come first, newest first, as the runner prepends them.
    if (pathAdded.length > 0) env.PATH = [...pathAdded, env.PATH ?? ""].join(":");
    const command = prepare(step, job, ctx, env, index, own);
    const stepLimit =
      step["timeout-minutes"] !== undefined ? step["timeout-minutes"] * job.minuteMs : null;
    const jobLeft = deadline !== null ? Math.max(0, deadline - Date.now()) : null;
    const timeoutMs =
      stepLimit === null ? jobLeft : jobLeft === null ? stepLimit : Math.min(stepLimit, jobLeft);
    record.log += `##[group]${rec.name}\n`;
    // A cancel re-evaluates the step's `if` (Workflow cancellation reference): an `always()`
    // or `cancelled()` step runs on, or starts, in a cancelled job; any other gets SIGINT.
    const cancelStep = new AbortController();
    const onCancel = () => {
      if (!condition(step.if, ctxFor())) cancelStep.abort();
    };
    if (job.signal.aborted) onCancel();
    job.signal.addEventListener("abort", onCancel, { once: true });
    const result = await runProcess({
      ...command,
      env,
      signal: cancelStep.signal,
      force: job.force,
      ...(job.user ? { user: job.user } : {}),
      ...(timeoutMs !== null ? { timeoutMs } : {}),
      onOutput: (chunk) => {
        record.log += chunk;
      },
    });
    job.signal.removeEventListener("abort", onCancel);
    if (result.timedOut) {
      const whole = jobLeft !== null && (stepLimit === null || jobLeft <= stepLimit);
      record.log += whole
        ? `##[error]The job has exceeded the maximum execution time of ${def["timeout-minutes"]} minutes.\n`
        : `##[error]The action has timed out.\n`;
      if (whole) jobTimedOut = true;
    }
    let outputs: Record<string, string> = {};
    try {
      outputs = parseFileCommand(files.GITHUB_OUTPUT);
      Object.assign(extraEnv, parseFileCommand(files.GITHUB_ENV));
      const added = readFileSync(files.GITHUB_PATH, "utf8").split(/\r?\n/).filter(Boolean);
      pathAdded.unshift(...added.reverse());
    } catch (error) {
      record.log += `##[error]Unable to process file command: ${String(error)}\n`;
      result.code = 1;
    }
    record.summary += readFileSync(files.GITHUB_STEP_SUMMARY, "utf8");
    const outcome =
      result.cancelled || jobTimedOut ? "cancelled" : result.code === 0 ? "success" : "failure";
    const conclusion = outcome === "failure" && step["continue-on-error"] ? "success" : outcome;
    if (conclusion !== "success") failed = true;
    rec.status = "completed";
    rec.conclusion = conclusion;
    rec.completedAt = job.now();
    if (step.id) steps[step.id] = { outputs, outcome, conclusion };
    if (job.force.aborted) break;
  }
  const outputs: Record<string, string> = {};
  const ctx = ctxFor();
  for (const [name, expr] of Object.entries(def.outputs ?? {}))
    outputs[name] = interpolate(expr, ctx);
  const conclusion =
    job.signal.aborted || jobTimedOut ? "cancelled" : failed ? "failure" : "success";
  return { conclusion, outputs };
}

function prepare(
  step: StepDef,
  job: JobRun,
  ctx: ExprContext,
  env: Record<string, string>,
  index: number,
  own: (path: string) => void,
): { command: string; args: string[]; cwd: string } {
  const dir = step["working-directory"];
  const cwd = dir ? (isAbsolute(dir) ? dir : join(job.workspace, dir)) : job.workspace;
  if (step.run !== undefined) {
    const script = join(job.temp, `step_${index}.sh`);
    writeFileSync(script, interpolate(step.run, ctx));
    own(script);
    return { command: "bash", args: ["--noprofile", "--norc", "-eo", "pipefail", script], cwd };
  }
  const uses = step.uses ?? "";
  const spec = job.actions[uses];
  let entry: string;
  let defaults: Record<string, string>;
  if (spec) {
    entry = typeof spec === "string" ? spec : spec.entry;
    defaults = typeof spec === "string" ? {} : (spec.inputs ?? {});
  } else {
    try {
      ({ entry, inputs: defaults } = job.resolveAction(uses));
    } catch (error) {
      // An action that cannot be found fails its step loudly, as on GitHub.
      const message = error instanceof Error ? error.message : String(error);
      return {
        command: "bash",
        args: ["-c", `printf '::error::%s\\n' "$1" >&2; exit 1`, "bash", message],
        cwd,
      };
    }
  }
  const given = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, String(v)]));
  for (const [name, value] of Object.entries({ ...defaults, ...given }))
    env[inputEnvName(name)] = interpolate(value, ctx);
  const args = entry.endsWith(".ts") ? ["--import", TSX, entry] : [entry];
  return { command: process.execPath, args, cwd };
}
