import { ZERO_SHA } from "../git/git.ts";
import { renderPull } from "../render/pulls.ts";
import { renderPush } from "../render/push.ts";
import type { RouteContext } from "../routes/context.ts";
import { fetchForkHead } from "../state/pull-ops.ts";
import type { Repo, User } from "../state/types.ts";

export interface RefChange {
  branch: string;
  before: string;
  after: string;
}

/** Branches whose head moved between two snapshots of a repository's refs. */
export function refChanges(before: Map<string, string>, after: Map<string, string>): RefChange[] {
  const changes: RefChange[] = [];
  for (const [branch, sha] of after)
    if (before.get(branch) !== sha)
      changes.push({ branch, before: before.get(branch) ?? ZERO_SHA, after: sha });
  for (const [branch, sha] of before)
    if (!after.has(branch)) changes.push({ branch, before: sha, after: ZERO_SHA });
  return changes;
}

/**
 * Does what GitHub does after refs move (a git push, `sandbox.push`, a merge): refreshes the
 * ref mirror, sends `push`, moves open PRs on the branch (`synchronize`, mergeability reset)
 * and, unless a workflow's GITHUB_TOKEN caused it, starts CI and `on: push` workflows.
 */
export function afterPush(
  ctx: RouteContext,
  repo: Repo,
  changes: RefChange[],
  sender: User,
  startsWorkflows: boolean,
): void {
  const { store, render, bus, clock } = ctx;
  const git = store.git(repo);
  const before = new Map(repo.branches);
  repo.branches.clear();
  for (const [branch, sha] of git.branches()) repo.branches.set(branch, sha);
  if (changes.length === 0) return;
  repo.pushedAt = clock.now();
  for (const change of changes) {
    // A new branch's payload lists only commits no other branch had before the push.
    const others = [...before].filter(([b]) => b !== change.branch).map(([, sha]) => sha);
    const payload = renderPush(render, repo, git, change, sender, others);
    bus.emit("push", repo, sender, payload);
    for (const pull of store.pulls.values()) {
      // PRs into this repository, and PRs from it into the repository it is a fork of.
      if ((pull.repoId !== repo.id && pull.headRepoId !== repo.id) || pull.merged) continue;
      if (store.issueByNumber(pull.repoId, pull.number).state !== "open") continue;
      if (pull.repoId === repo.id && pull.baseRef === change.branch) pull.mergeable = null;
      if (pull.headRepoId !== repo.id || pull.headRef !== change.branch) continue;
      if (change.after === ZERO_SHA) continue;
      pull.headSha = change.after;
      pull.mergeable = null;
      // A new head is an update of the PR: its updated_at moves with it.
      store.issueByNumber(pull.repoId, pull.number).updatedAt = clock.now();
      fetchForkHead(store, pull);
      // The event belongs to the PR's (base) repository, wherever the head lives.
      bus.emit("pull_request", store.repo(pull.repoId), sender, {
        action: "synchronize",
        number: pull.number,
        before: change.before,
        after: change.after,
        pull_request: renderPull(render, pull, "webhook"),
      });
      if (startsWorkflows) ctx.triggers?.pullRequest(pull, "synchronize", sender);
    }
    if (startsWorkflows && change.after !== ZERO_SHA) ctx.triggers?.push(repo, change, sender);
  }
}
