import { announceRun, newRun } from "../routes/actions.ts";
import type { RouteContext } from "../routes/context.ts";
import type { Pull, Repo, User, Workflow, WorkflowRun } from "../state/types.ts";
import type { WorkflowDef } from "./workflow-file.ts";

/**
 * Skipping workflow runs: a commit message holding `[skip ci]`, `[ci skip]`, `[no ci]`,
 * `[skip actions]` or `[actions skip]`, or ending with a `skip-checks: true` trailer, starts
 * no `push` or `pull_request` workflow.
 */
export function skipsWorkflows(message: string): boolean {
  if (/\[(skip ci|ci skip|no ci|skip actions|actions skip)\]/i.test(message)) return true;
  const lines = message.trimEnd().split("\n");
  return /^skip-checks:\s*true$/i.test(lines[lines.length - 1]?.trim() ?? "");
}

/**
 * Approving workflow runs from public forks: by default, a pull request from a fork of a
 * public repository by a first-time contributor (no write access, nothing merged there yet)
 * runs its workflows only once someone with write access approves them.
 */
export function needsApproval(ctx: RouteContext, pull: Pull, sender: User): boolean {
  const { store } = ctx;
  const repo = store.repo(pull.repoId);
  if (pull.headRepoId === pull.repoId || repo.private) return false;
  if (sender.id === repo.ownerId) return false;
  const role = repo.collaborators.get(sender.id);
  if (role && role !== "read" && role !== "triage") return false;
  const merged = [...store.pulls.values()].some(
    (p) =>
      p.repoId === repo.id &&
      p.merged &&
      store.issueByNumber(p.repoId, p.number).userId === sender.id,
  );
  return !merged;
}

/** Creates the `pull_request` runs of a PR event; a run awaiting approval is `action_required`. */
export function pullRequestRuns(
  ctx: RouteContext,
  repo: Repo,
  pull: Pull,
  sender: User,
  workflows: Array<{ workflow: Workflow; def: WorkflowDef }>,
): { ready: WorkflowRun[]; waiting: WorkflowRun[] } {
  const ready: WorkflowRun[] = [];
  const waiting: WorkflowRun[] = [];
  const approval = needsApproval(ctx, pull, sender);
  for (const { workflow, def } of workflows) {
    const trigger = def.triggers.pullRequest;
    if (!trigger) continue;
    if (trigger.branches && !trigger.branches.includes(pull.baseRef)) continue;
    const run = newRun(ctx, repo, workflow, "pull_request", pull.headRef, pull.headSha, sender, {});
    run.fromFork = pull.headRepoId !== pull.repoId;
    if (!approval) {
      ready.push(run);
      continue;
    }
    run.status = "completed";
    run.conclusion = "action_required";
    run.updatedAt = ctx.clock.now();
    announceRun(ctx, run, "completed", sender);
    waiting.push(run);
  }
  return { ready, waiting };
}
