import { observePullRequest, type PrObservation } from "@loopx/core";
import type { PullSnapshot, RepoName } from "@loopx/github";
import type { AppDeps } from "../deps.ts";
import { transitionContext } from "../intake/goal-context.ts";
import { loadRepoConfig } from "../repo-config.ts";
import { applied, ignored, type Outcome } from "../webhooks/outcome.ts";
import { readPull } from "./read-pull.ts";

export interface PullTarget {
  installationId: number;
  repoId: number;
  repo: RepoName;
  number: number;
}

/** What `.github/loopx.yml` tells the monitor: merge gates, extra required checks, repairs. */
export async function monitorOptions(deps: AppDeps, target: PullTarget) {
  const port = await deps.readsFor(target.installationId);
  const config = await loadRepoConfig(port, target.repo);
  const rules = config.ok ? config.config.gates : [{ when: "merge" as const, scopes: ["merge"] }];
  const merges = rules.filter((r) => "when" in r && r.when === "merge");
  return {
    port,
    read: {
      mergeGate: merges.length > 0,
      mergeScopes: [...new Set(merges.flatMap((r) => r.scopes))].filter((s) => s !== "merge"),
      checks: config.ok ? config.config.checks : [],
      ...(config.ok ? { repairAttempts: config.config.repair.attempts } : {}),
    },
  };
}

/**
 * Every goal in `ids` takes the observation (the kernel acts on its one outcome, once per
 * fingerprint); the last goal's transaction marks the delivery.
 */
export async function observeForGoals(
  deps: AppDeps,
  ids: readonly string[],
  observation: PrObservation,
  deliveryId: string | null,
): Promise<Outcome> {
  let outcome: Outcome = ignored(`nothing new on #${observation.number}`);
  for (const [i, id] of ids.entries()) {
    const last = i === ids.length - 1;
    const result = await deps.store.apply(
      id,
      (s, now) => observePullRequest(s, observation, transitionContext(deps, { kind: "app" }, now)),
      last && deliveryId !== null ? { deliveryId } : {},
    );
    if (result.ok) outcome = applied;
  }
  return outcome;
}

/**
 * The PR monitor's step for one PR: every goal that follows it gets a fresh reading, and
 * the kernel (observePullRequest) acts on its one outcome, once per fingerprint. Called for
 * webhooks and by the reconcile backstop; a refusal (nothing new, watch ended) is quiet.
 */
export async function monitorPull(
  deps: AppDeps,
  target: PullTarget,
  deliveryId: string | null,
  known?: PullSnapshot,
): Promise<Outcome> {
  // Who watches it, without loading an aggregate: each apply below loads its goal once.
  const ids = await deps.store.goalIdsWatchingPull(target.repoId, target.number);
  if (ids.length === 0) return ignored(`no goal watches #${target.number}`);
  const { port, read } = await monitorOptions(deps, target);
  const observation = await readPull(port, target.repo, target.number, read, known);
  return observeForGoals(deps, ids, observation, deliveryId);
}

/** The backstop: every watched PR of every active goal, read again (scheduler cadence). */
export async function reconcilePulls(deps: AppDeps, goalIds: readonly string[]): Promise<number> {
  let changed = 0;
  for (const id of goalIds) {
    const state = await deps.store.loadGoal(id);
    if (!state || state.goal.status === "done") continue;
    const repo = { owner: state.goal.repo.owner, repo: state.goal.repo.name };
    for (const pr of state.pullRequests.filter((p) => p.monitor.watching)) {
      const target = {
        installationId: state.goal.installationId,
        repoId: state.goal.repo.id,
        repo,
        number: pr.number,
      };
      if ((await monitorPull(deps, target, null)).kind === "applied") changed += 1;
    }
  }
  return changed;
}
