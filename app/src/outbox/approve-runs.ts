import type { Effect, GoalState } from "@loopx/core";
import { GitHubError, type GitHubPort, renderReceipt } from "@loopx/github";

type ApproveRuns = Extract<Effect, { kind: "approve_runs" }>;

/**
 * A writer approved the workflow runs waiting on a PR's head. GitHub's approve endpoint
 * serves fork pull requests only ("Approve a workflow run for a fork pull request"); for any
 * other PR, or when GitHub refuses, the reply points the person to "Approve and run" on the
 * PR's Checks tab. The reply is keyed, so a retry after a crash writes it once.
 */
export async function approveRuns(
  port: Pick<GitHubPort, "getPull" | "approveRun" | "ensureComment">,
  state: GoalState,
  effect: ApproveRuns,
  serverUrl: string,
): Promise<void> {
  const repo = { owner: state.goal.repo.owner, repo: state.goal.repo.name };
  const issue = { ...repo, number: state.goal.issue.number };
  const full = `${repo.owner}/${repo.repo}`.toLowerCase();
  const pull = await port.getPull(repo, effect.pr);
  const fromFork = pull.headRepo !== null && pull.headRepo.toLowerCase() !== full;
  const approved: number[] = [];
  if (fromFork) {
    for (const runId of effect.runIds) {
      try {
        await port.approveRun(repo, runId);
        approved.push(runId);
      } catch (error) {
        // Already approved, or not GitHub's to approve by API: the person's button remains.
        if (!(error instanceof GitHubError && error.permanent)) throw error;
      }
    }
  }
  const checks = `${serverUrl}/${repo.owner}/${repo.repo}/pull/${effect.pr}/checks`;
  const text =
    approved.length > 0 && approved.length === effect.runIds.length
      ? `LoopX approved the ${approved.length} workflow run${approved.length === 1 ? "" : "s"} waiting on #${effect.pr} (${effect.gate}).`
      : `GitHub lets only a person approve the workflow runs waiting on #${effect.pr}${approved.length > 0 ? ` (LoopX approved ${approved.length} of ${effect.runIds.length})` : ""}: open ${checks} and press "Approve and run".`;
  await port.ensureComment(issue, `${effect.key}:reply`, renderReceipt(text));
}
