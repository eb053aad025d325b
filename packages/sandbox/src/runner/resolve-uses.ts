import type { GitRepo } from "../git/git.ts";
import type { Store } from "../state/store.ts";
import type { Repo } from "../state/types.ts";

/** A `uses:` target found in a repository the sandbox hosts, at the commit its ref names. */
export interface ResolvedUses {
  repo: Repo;
  /** The repository whose objects hold the commit (a fork, for a fork's SHA named under its parent). */
  git: GitRepo;
  sha: string;
  /** The ref as GitHub spells it in `job_workflow_ref`: `refs/tags/v1`, `refs/heads/main`, or the bare SHA. */
  ref: string;
  /** The path inside the repository (a workflow file, or an action's directory; "" = the root). */
  path: string;
}

export class UsesError extends Error {}

const SHA = /^[0-9a-f]{40}$/;

/** Every repository of a fork network: the source and all forks below it. */
function network(store: Store, repo: Repo): Repo[] {
  let root = repo;
  while (root.forkOfId !== null) root = store.repo(root.forkOfId);
  const out: Repo[] = [];
  const visit = (r: Repo) => {
    out.push(r);
    for (const child of store.repos.values()) if (child.forkOfId === r.id) visit(child);
  };
  visit(root);
  return out;
}

/**
 * Resolves `owner/repo[/path]@ref` as the runner does for reusable workflows and actions: a
 * tag, else a branch, else a full commit SHA. A SHA resolves from anywhere in the repository's
 * fork network, because GitHub stores a network's objects together — a commit pushed only to
 * a fork can be named under its parent (Security hardening for GitHub Actions, "Using
 * third-party actions": pin to a SHA "from the action's repository, not a repository fork").
 */
export function resolveUses(store: Store, uses: string): ResolvedUses {
  const at = uses.lastIndexOf("@");
  if (at < 0)
    throw new UsesError(`'${uses}': a remote reference needs @<ref> (a tag, branch or SHA)`);
  const [owner = "", name = "", ...rest] = uses.slice(0, at).split("/");
  const ref = uses.slice(at + 1);
  let repo: Repo;
  try {
    repo = store.repoByName(owner, name);
  } catch {
    throw new UsesError(`Unable to resolve action \`${uses}\`, repository not found`);
  }
  const git = store.git(repo);
  const path = rest.join("/");
  if (SHA.test(ref)) {
    for (const member of network(store, repo)) {
      const memberGit = store.git(member);
      if (memberGit.resolve(ref) === ref) return { repo, git: memberGit, sha: ref, ref, path };
    }
    throw new UsesError(`Unable to resolve \`${uses}\`: commit ${ref} not found`);
  }
  for (const full of [`refs/tags/${ref}`, `refs/heads/${ref}`]) {
    const sha = git.resolve(full);
    if (sha) return { repo, git, sha, ref: full, path };
  }
  throw new UsesError(`Unable to resolve \`${uses}\`, unable to find version \`${ref}\``);
}
