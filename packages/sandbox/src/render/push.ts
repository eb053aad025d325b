import type { CommitInfo, GitRepo } from "../git/git.ts";
import { ZERO_SHA } from "../git/git.ts";
import type { Repo, User } from "../state/types.ts";
import type { Json, Renderer } from "./core.ts";

/** A commit as push payloads carry it. */
function pushCommit(r: Renderer, repo: Repo, git: GitRepo, c: CommitInfo): Json {
  const person = (p: CommitInfo["author"]) => ({ name: p.name, email: p.email });
  return {
    id: c.sha,
    tree_id: c.tree,
    distinct: true,
    message: c.message,
    timestamp: c.committer.date,
    url: `${r.repoHtml(repo)}/commit/${c.sha}`,
    author: person(c.author),
    committer: person(c.committer),
    ...git.commitChanges(c.sha),
  };
}

/** The `push` webhook body (GitHub's shape: ref, before, after, commits, head_commit, pusher…). */
export function renderPush(
  r: Renderer,
  repo: Repo,
  git: GitRepo,
  change: { branch: string; before: string; after: string },
  pusher: User,
  /** Heads of the other branches before the push: commits reachable from them are not new. */
  otherHeads: string[],
): Json {
  const { branch, before, after } = change;
  const created = before === ZERO_SHA;
  const deleted = after === ZERO_SHA;
  const commits = deleted ? [] : git.newCommits(before, after, otherHeads);
  const head = deleted ? null : git.commitInfo(after);
  return {
    ref: `refs/heads/${branch}`,
    before,
    after,
    created,
    deleted,
    forced: !created && !deleted && !git.isAncestor(before, after),
    base_ref: null,
    compare: created
      ? `${r.repoHtml(repo)}/commit/${after.slice(0, 12)}`
      : `${r.repoHtml(repo)}/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`,
    commits: commits.map((c) => pushCommit(r, repo, git, c)),
    head_commit: head ? pushCommit(r, repo, git, head) : null,
    pusher: { name: pusher.login, email: `${pusher.id}+${pusher.login}@users.noreply.github.com` },
  };
}
