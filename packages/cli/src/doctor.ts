/**
 * `loopx doctor owner/repo`: a repository's LoopX setup, checked through the REST API —
 * `.github/loopx.yml` valid, the tick workflow present with an OIDC token, no workflow
 * reaching LoopX on push or pull_request_target, with `secrets: inherit` or with a writing
 * agent job (doctor-callers.ts), and no `pull_request` workflow handing secrets to
 * agent-written code without a reviewer gate (docs/architecture.md, "Agent code in CI").
 */
import { parseConfig } from "@loopx/github";
import type { Octokit } from "@octokit/rest";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { EXIT } from "./api-client.ts";
import { callerFindings, type Finding, WorkflowJob } from "./doctor-callers.ts";
import { environmentHasReviewers, listDir, readFile, requireRepo } from "./repo-files.ts";

export type { Finding } from "./doctor-callers.ts";

const Workflow = z.object({
  on: z.unknown(),
  permissions: z.unknown().optional(),
  jobs: z.record(z.string(), WorkflowJob),
});

function yamlOf(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: parseYaml(text) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The event names a workflow's `on:` lists (string, list or map form). */
function triggers(on: unknown): string[] {
  if (typeof on === "string") return [on];
  if (Array.isArray(on)) return on.filter((e): e is string => typeof e === "string");
  if (on && typeof on === "object") return Object.keys(on);
  return [];
}

const grantsIdToken = (permissions: unknown) =>
  permissions === "write-all" || JSON.stringify(permissions ?? null).includes('"id-token":"write"');

function environmentName(env: unknown): string | null {
  if (typeof env === "string") return env;
  const named = z.object({ name: z.string() }).safeParse(env);
  return named.success ? named.data.name : null;
}

export async function doctor(octokit: Octokit, owner: string, repo: string): Promise<Finding[]> {
  const r = { owner, repo };
  await requireRepo(octokit, r);
  const findings: Finding[] = [];

  const configText = await readFile(octokit, r, ".github/loopx.yml");
  // Without a config the default file name applies (the same default the App uses).
  const defaults = parseConfig(null);
  let tickWorkflow = defaults.ok ? defaults.config.tickWorkflow : "loopx-tick.yml";
  if (configText === null) {
    findings.push({
      level: "warn",
      message: ".github/loopx.yml is absent: LoopX uses its defaults.",
    });
  } else {
    const y = yamlOf(configText);
    const result = y.ok ? parseConfig(y.value) : null;
    if (!y.ok) {
      findings.push({ level: "fail", message: `.github/loopx.yml is not YAML: ${y.error}` });
    } else if (result && !result.ok) {
      for (const e of result.errors) {
        findings.push({ level: "fail", message: `.github/loopx.yml ${e.path}: ${e.message}` });
      }
    } else if (result?.ok) {
      tickWorkflow = result.config.tickWorkflow;
      findings.push({ level: "ok", message: ".github/loopx.yml is valid." });
    }
  }

  const files = (await listDir(octokit, r, ".github/workflows")).filter((f) =>
    /\.ya?ml$/.test(f.name),
  );
  const tick = files.find((f) => f.name === tickWorkflow);
  if (!tick) {
    findings.push({
      level: "fail",
      message: `.github/workflows/${tickWorkflow} is missing: LoopX dispatches it for every tick (see docs/workflows.md).`,
    });
  }
  for (const file of files) {
    const text = await readFile(octokit, r, file.path);
    const y = text === null ? null : yamlOf(text);
    const wf = y?.ok ? Workflow.safeParse(y.value) : null;
    if (!wf?.success) {
      findings.push({ level: "warn", message: `${file.path} could not be read as a workflow.` });
      continue;
    }
    const on = triggers(wf.data.on);
    findings.push(
      ...callerFindings(
        { path: file.path, on, permissions: wf.data.permissions, jobs: wf.data.jobs },
        tickWorkflow,
      ),
    );
    if (file === tick) {
      if (!on.includes("workflow_dispatch")) {
        findings.push({
          level: "fail",
          message: `${file.path} has no workflow_dispatch trigger, so LoopX cannot start ticks.`,
        });
      }
      const jobs = Object.values(wf.data.jobs);
      const oidc =
        grantsIdToken(wf.data.permissions) || jobs.some((j) => grantsIdToken(j.permissions));
      if (!oidc) {
        findings.push({
          level: "fail",
          message: `${file.path} does not grant \`id-token: write\`: the tick cannot prove itself to the App. Add permissions: { contents: read, id-token: write }.`,
        });
      } else if (on.includes("workflow_dispatch")) {
        findings.push({
          level: "ok",
          message: `${file.path} is the tick workflow (dispatchable, OIDC granted).`,
        });
      }
    }
    if (!on.includes("pull_request") && !on.includes("pull_request_target")) continue;
    for (const [name, job] of Object.entries(wf.data.jobs)) {
      if (!JSON.stringify(job).includes("secrets.")) continue;
      const env = environmentName(job.environment);
      const guarded = env ? await environmentHasReviewers(octokit, r, env) : false;
      if (guarded === true) continue;
      findings.push({
        level: "warn",
        message: env
          ? `${file.path} job ${name} reads secrets on pull_request behind environment ${env}, whose required reviewers could not be confirmed: LoopX PRs run this with those secrets.`
          : `${file.path} job ${name} reads secrets on pull_request with no environment: a LoopX PR (agent-written code) runs it with those secrets. Put the job behind an environment with required reviewers.`,
      });
    }
  }
  return findings;
}

export function exitCodeFor(findings: readonly Finding[]): number {
  return findings.some((f) => f.level === "fail") ? EXIT.problems : EXIT.ok;
}
