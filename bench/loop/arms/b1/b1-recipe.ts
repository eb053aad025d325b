/**
 * Arm B1 of `bench:loop`, the headline baseline: a scheduled claude-code-action job as a team
 * would commit it (workflow.yml) with its prompt (prompt.md); SOURCES.md says where each part
 * comes from. The bench reads its schedule and per-run caps from the committed workflow, so
 * the numbers it simulates are the ones a reader can check in the YAML, and fills the prompt
 * the way the workflow's context step does.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { z } from "zod";

/** This arm's folder: workflow.yml, prompt.md, SOURCES.md. */
export const B1_DIR = fileURLToPath(new URL(".", import.meta.url));
export const WORKFLOW_PATH = join(B1_DIR, "workflow.yml");
export const PROMPT_PATH = join(B1_DIR, "prompt.md");

/**
 * The action B1 runs, pinned to a release: the major tag its README shows (`@v1`), a full
 * version or a commit. A branch (`@main`, the retired `@beta`) moves under the benchmark.
 */
const ACTION = /^anthropics\/claude-code-action@(v\d+(\.\d+){0,2}|[0-9a-f]{40})$/;

export interface B1Recipe {
  /** The `on.schedule` cron (UTC). */
  cron: string;
  /** The workflow's `concurrency.group`, as written (it may hold an expression). */
  concurrencyGroup: string;
  /** The agent job's `timeout-minutes`. */
  timeoutMinutes: number;
  /** `--max-turns` from the action's `claude_args`; null when the workflow sets none. */
  maxTurns: number | null;
  /** The one branch all runs work on. */
  branch: string;
  /** The agent's memory file on that branch. */
  progressFile: string;
  /** A line holding only this in the progress file stops the loop. */
  doneMarker: string;
}

const Step = z.object({
  uses: z.string().optional(),
  run: z.string().optional(),
  with: z.record(z.string(), z.unknown()).optional(),
});

const Job = z.object({
  "timeout-minutes": z.number().int().positive().optional(),
  steps: z.array(Step).min(1),
});

const Workflow = z.object({
  on: z.object({
    // One cron: the bench simulates one schedule, so a second would silently go unmodelled.
    schedule: z.array(z.object({ cron: z.string().min(1) })).length(1),
    // Present so a person can start a run by hand, as the recipe's examples have it.
    workflow_dispatch: z.unknown().refine((v) => v !== undefined, "is required"),
  }),
  concurrency: z.object({
    group: z.string().min(1),
    // B1's runs never overlap and never cut a running agent short: that is the recipe.
    "cancel-in-progress": z.literal(false),
  }),
  env: z.object({
    WORK_BRANCH: z.string().min(1),
    PROGRESS_FILE: z.string().min(1),
    DONE_MARKER: z.string().min(1),
  }),
  jobs: z.record(z.string(), Job),
});

/** Reads and checks a B1 workflow's text; throws naming the field that is wrong. */
export function parseRecipe(workflowYaml: string): B1Recipe {
  const parsed = Workflow.safeParse(parse(workflowYaml));
  if (!parsed.success) throw new Error(`B1 workflow: ${z.prettifyError(parsed.error)}`);
  const wf = parsed.data;
  const agentJobs = Object.entries(wf.jobs).filter(([, job]) =>
    job.steps.some((s) => s.uses?.startsWith("anthropics/claude-code-action@")),
  );
  if (agentJobs.length !== 1) {
    throw new Error(
      `B1 workflow: exactly one job runs anthropics/claude-code-action (found ${agentJobs.length})`,
    );
  }
  const [name, job] = agentJobs[0]!;
  const step = job.steps.find((s) => s.uses?.startsWith("anthropics/claude-code-action@"))!;
  if (!ACTION.test(step.uses ?? "")) {
    throw new Error(`B1 workflow: pin the action to a release like @v1 (found ${step.uses})`);
  }
  const timeoutMinutes = job["timeout-minutes"];
  if (timeoutMinutes === undefined) {
    // Without it GitHub's default is 360 minutes: not the per-run cap the bench compares.
    throw new Error(`B1 workflow: job "${name}" needs timeout-minutes`);
  }
  return {
    cron: wf.on.schedule[0]!.cron,
    concurrencyGroup: wf.concurrency.group,
    timeoutMinutes,
    maxTurns: maxTurnsOf(step.with?.claude_args),
    branch: wf.env.WORK_BRANCH,
    progressFile: wf.env.PROGRESS_FILE,
    doneMarker: wf.env.DONE_MARKER,
  };
}

/** The committed workflow.yml, read and checked. */
export function loadRecipe(path: string = WORKFLOW_PATH): B1Recipe {
  return parseRecipe(readFileSync(path, "utf8"));
}

/** v1 took `max_turns` out of its inputs: the cap is the CLI flag inside `claude_args`. */
function maxTurnsOf(claudeArgs: unknown): number | null {
  if (claudeArgs === undefined) return null;
  if (typeof claudeArgs !== "string") throw new Error("B1 workflow: claude_args is a string");
  const found = [...claudeArgs.matchAll(/--max-turns(?:\s+|=)(\S+)/g)].map((m) => m[1]!);
  if (found.length === 0) return null;
  if (found.length > 1) throw new Error("B1 workflow: --max-turns is given more than once");
  const turns = Number(found[0]);
  if (!Number.isInteger(turns) || turns < 1) {
    throw new Error(`B1 workflow: --max-turns must be a positive integer (found ${found[0]})`);
  }
  return turns;
}

/** What the workflow's context step fills into prompt.md, in the order the prompt shows them. */
export const PROMPT_PLACEHOLDERS = [
  "OBJECTIVE",
  "ISSUE_COMMENTS",
  "PR_CHECKS",
  "PR_REVIEWS",
  "PROGRESS",
] as const;
export type PromptPlaceholder = (typeof PROMPT_PLACEHOLDERS)[number];
export type PromptVars = Partial<Record<PromptPlaceholder, string>>;

const PLACEHOLDER = /\{\{([A-Z][A-Z0-9_]*)\}\}/g;

/** Every `{{NAME}}` in a template, once each, in order of first appearance. */
export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/**
 * prompt.md with its placeholders filled in one pass, like the workflow's context step: a value
 * that itself holds `{{...}}` (an issue comment quoting the template) stays as written. Throws
 * naming every placeholder with no value, so an unfilled one never reaches the agent.
 */
export function renderPrompt(vars: PromptVars, template: string = readPromptTemplate()): string {
  const values: Readonly<Record<string, string | undefined>> = vars;
  const missing = placeholdersOf(template).filter((name) => values[name] === undefined);
  if (missing.length > 0) {
    throw new Error(`B1 prompt: no value for placeholder(s) ${missing.join(", ")}`);
  }
  return template.replace(PLACEHOLDER, (_, name: string) => values[name]!);
}

export function readPromptTemplate(path: string = PROMPT_PATH): string {
  return readFileSync(path, "utf8");
}
