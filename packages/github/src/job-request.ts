import type { JobRequest } from "@loopx/core";
import type { JobInputSpec, JobsConfig } from "./job-config.ts";

/** A job request the config allows: the workflow to dispatch and its inputs as GitHub takes them. */
export interface ValidJob {
  name: string;
  workflow: string;
  inputs: Record<string, string>;
}

export type JobCheck = { ok: true; job: ValidJob } | { ok: false; reason: string };

type Value = JobRequest["inputs"][string];

function typeError(name: string, spec: JobInputSpec, value: Value): string | null {
  switch (spec.type) {
    case "string":
      return typeof value === "string" ? null : `input "${name}" must be a string`;
    case "boolean":
      return typeof value === "boolean" ? null : `input "${name}" must be true or false`;
    case "number":
      return typeof value === "number" && Number.isFinite(value)
        ? null
        : `input "${name}" must be a number`;
    case "choice":
      return typeof value === "string" && spec.options.includes(value)
        ? null
        : `input "${name}" must be one of ${spec.options.map((o) => JSON.stringify(o)).join(", ")}`;
  }
}

const listed = (jobs: JobsConfig): string => {
  const names = Object.keys(jobs);
  return names.length > 0
    ? `the jobs listed in .github/loopx.yml are ${names.join(", ")}`
    : "no jobs are listed in .github/loopx.yml (a writer adds them under jobs:)";
};

/**
 * Checks a slice's job request against `jobs:` as the default branch lists it. A refusal says
 * what was wrong and what would work, so the next slice can do better; it never guesses.
 */
export function checkJobRequest(jobs: JobsConfig, request: JobRequest): JobCheck {
  const spec = Object.hasOwn(jobs, request.name) ? jobs[request.name] : undefined;
  if (spec === undefined) {
    return { ok: false, reason: `job "${request.name}" is not listed: ${listed(jobs)}` };
  }
  const declared = Object.keys(spec.inputs);
  const expects =
    declared.length > 0
      ? `job "${request.name}" takes ${declared.map((n) => `${n} (${spec.inputs[n]?.type})`).join(", ")}`
      : `job "${request.name}" takes no inputs`;
  const problems: string[] = [];
  for (const [name, value] of Object.entries(request.inputs)) {
    const input = Object.hasOwn(spec.inputs, name) ? spec.inputs[name] : undefined;
    if (input === undefined) problems.push(`input "${name}" is not declared`);
    else {
      const wrong = typeError(name, input, value);
      if (wrong) problems.push(wrong);
    }
  }
  for (const [name, input] of Object.entries(spec.inputs)) {
    if (input.required && !Object.hasOwn(request.inputs, name)) {
      problems.push(`input "${name}" is required`);
    }
  }
  if (problems.length > 0) return { ok: false, reason: `${problems.join("; ")}: ${expects}` };
  const inputs = Object.fromEntries(
    Object.entries(request.inputs).map(([k, v]) => [k, String(v)] as const),
  );
  return { ok: true, job: { name: request.name, workflow: spec.workflow, inputs } };
}
