/**
 * `loopx doctor`'s checks of workflows that reach LoopX (call its reusable workflows or run
 * its action): what they hand the agent beyond what the shipped tick workflow gives it.
 */
import { z } from "zod";

export type Finding = { level: "ok" | "warn" | "fail"; message: string };

const Step = z.object({ uses: z.string().optional(), with: z.unknown().optional() }).loose();

export const WorkflowJob = z
  .object({
    uses: z.string().optional(),
    secrets: z.unknown().optional(),
    steps: z.array(Step).optional(),
    environment: z.unknown().optional(),
    permissions: z.unknown().optional(),
  })
  .loose();
export type WorkflowJob = z.infer<typeof WorkflowJob>;

export interface ParsedWorkflow {
  path: string;
  on: string[];
  permissions: unknown;
  jobs: Record<string, WorkflowJob>;
}

/** LoopX's own: `loopx/loopx@…` (the action), `loopx/loopx/.github/workflows/…@…`. */
const LOOPX_REF = /^loopx\/loopx(?:@|\/)/i;

const callsLoopx = (job: WorkflowJob, localTick: string) =>
  (job.uses !== undefined && (LOOPX_REF.test(job.uses) || job.uses === localTick)) ||
  (job.steps ?? []).some((s) => s.uses !== undefined && LOOPX_REF.test(s.uses));

/** A job that runs the action's agent phase itself (a hand-rolled tick). */
function runsAgentPhase(job: WorkflowJob): boolean {
  return (job.steps ?? []).some(
    (s) =>
      s.uses !== undefined &&
      LOOPX_REF.test(s.uses) &&
      z.object({ phase: z.literal("agent") }).safeParse(s.with).success,
  );
}

/** Whether a `permissions:` value grants any write (`write-all`, or a scope set to write). */
function grantsWrite(permissions: unknown): boolean {
  if (permissions === "write-all") return true;
  const scopes = z.record(z.string(), z.string()).safeParse(permissions);
  return scopes.success && Object.values(scopes.data).includes("write");
}

/**
 * Findings for one workflow that reaches LoopX (the tick workflow, or any job calling
 * LoopX's workflow or action); none for workflows that do not.
 */
export function callerFindings(wf: ParsedWorkflow, tickFile: string): Finding[] {
  const localTick = `./.github/workflows/${tickFile}`;
  const reaching = Object.entries(wf.jobs).filter(([, job]) => callsLoopx(job, localTick));
  if (reaching.length === 0) return [];
  const out: Finding[] = [];
  for (const trigger of ["push", "pull_request_target"] as const) {
    if (!wf.on.includes(trigger)) continue;
    out.push({
      level: "fail",
      message:
        trigger === "push"
          ? `${wf.path} reaches LoopX on push: any push (the agent's own loopx/* branches included) runs it with this workflow's secrets. Ticks start only from workflow_dispatch and schedule; drop the push trigger.`
          : `${wf.path} reaches LoopX on pull_request_target: a stranger's pull request runs with the base repository's secrets and a write token. Drop the pull_request_target trigger.`,
    });
  }
  for (const [name, job] of reaching) {
    if (job.secrets === "inherit") {
      out.push({
        level: "fail",
        message: `${wf.path} job ${name} passes secrets: inherit: every repository secret reaches the tick. Pass only the harness key (e.g. ANTHROPIC_API_KEY: \${{ secrets.ANTHROPIC_API_KEY }}).`,
      });
    }
    if (!runsAgentPhase(job)) continue;
    const permissions = job.permissions ?? wf.permissions;
    if (grantsWrite(permissions)) {
      out.push({
        level: "fail",
        message: `${wf.path} job ${name} runs the agent with write permissions: the agent's code holds a token that can write. Give the agent job permissions: { contents: read } and nothing else.`,
      });
    } else if (permissions === undefined) {
      out.push({
        level: "warn",
        message: `${wf.path} job ${name} runs the agent with no permissions set, so it gets the repository's default token, which may write. Set permissions: { contents: read } on it.`,
      });
    }
  }
  return out;
}
