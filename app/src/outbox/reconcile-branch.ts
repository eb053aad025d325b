import { type GoalState, recordBranchInBase, trackPullRequest } from "@loopx/core";
import type { PullSnapshot } from "@loopx/github";
import type { AppDeps } from "../deps.ts";
import { transitionContext } from "../intake/goal-context.ts";
import { monitorPull } from "../pulls/monitor-pull.ts";

interface Branch {
  todo: string;
  branch: string;
  headSha: string;
}

/**
 * Brings the goal in line with what GitHub holds for one of LoopX's PRs: the goal tracks it
 * if it did not yet, and the PR monitor reads it now. For a PR that already merged or closed
 * at the owed head (while the App was down, or before a retried write) that answer is
 * followed, never a second PR: a merge completes the todo with its merge commit, a close
 * reopens the todo for a replan. For a PR just reopened, it reads what was announced before
 * the goal followed it again.
 */
export async function settleFromPull(
  deps: AppDeps,
  state: GoalState,
  at: Branch,
  pull: PullSnapshot,
): Promise<void> {
  if (!state.pullRequests.some((p) => p.number === pull.number)) {
    const input = { number: pull.number, todo: at.todo, headRef: at.branch, headSha: pull.headSha };
    const tracked = await deps.store.apply(state.goal.id, (s, now) =>
      trackPullRequest(s, input, transitionContext(deps, { kind: "app" }, now)),
    );
    if (!tracked.ok) deps.log.info(`#${pull.number}: ${tracked.refusal.message}`);
  }
  const target = {
    installationId: state.goal.installationId,
    repoId: state.goal.repo.id,
    repo: { owner: state.goal.repo.owner, repo: state.goal.repo.name },
    number: pull.number,
  };
  const outcome = await monitorPull(deps, target, null);
  const what = pull.merged ? "merged" : "closed";
  deps.log.info(
    `${at.branch} at ${at.headSha.slice(0, 7)} was already ${what} in #${pull.number}: ${outcome.kind}`,
  );
}

/**
 * GitHub refused the PR because the branch's head is already in the base: not a write to
 * retry but what became of the work. The todo waiting for that PR is done with it.
 */
export async function recordInBase(
  deps: AppDeps,
  state: GoalState,
  at: Branch,
  base: string,
): Promise<void> {
  const input = { ...at, base };
  const recorded = await deps.store.apply(state.goal.id, (s, now) =>
    recordBranchInBase(s, input, transitionContext(deps, { kind: "app" }, now)),
  );
  const outcome = recorded.ok ? "recorded" : recorded.refusal.message;
  deps.log.info(`${at.branch} at ${at.headSha.slice(0, 7)} is already in ${base}: ${outcome}`);
}
