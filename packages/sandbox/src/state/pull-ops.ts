import type { Store } from "./store.ts";
import type { Pull, Repo } from "./types.ts";

const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#(\d+)\b/gi;

/** Issue numbers a PR body closes; GitHub links them only when the PR targets the default branch. */
export function closingIssueNumbers(repo: Repo, baseRef: string, text: string | null): number[] {
  if (baseRef !== repo.defaultBranch || !text) return [];
  const numbers = new Set<number>();
  for (const match of text.matchAll(CLOSING)) numbers.add(Number(match[1]));
  return [...numbers];
}

/**
 * A PR from a fork: its head's commits are fetched into the base repository as
 * `refs/pull/<n>/head` (as GitHub does), so mergeability, diffs, CI and merges see them.
 */
export function fetchForkHead(store: Store, pull: Pull): void {
  if (pull.headRepoId === pull.repoId) return;
  const fork = store.repo(pull.headRepoId);
  store
    .git(store.repo(pull.repoId))
    .run([
      "fetch",
      "--quiet",
      fork.gitDir,
      `+refs/heads/${pull.headRef}:refs/pull/${pull.number}/head`,
    ]);
}

/**
 * Whether a PR from `headSha` would bring the base anything: GitHub refuses one whose head is
 * already in the base (no commits between them). A fork's head is judged in the fork, against
 * the base commits it has.
 */
export function hasCommitsAhead(store: Store, headRepo: Repo, headSha: string, baseSha: string) {
  return headSha !== baseSha && !store.git(headRepo).isAncestor(headSha, baseSha);
}

/**
 * The head a closed PR would have if reopened: its branch's tip, when the branch still exists
 * and only moved forward from the PR's head (a deleted or rewritten branch cannot be reopened).
 */
export function reopenableHead(store: Store, pull: Pull): string | null {
  const headRepo = store.repo(pull.headRepoId);
  const tip = headRepo.branches.get(pull.headRef);
  if (!tip) return null;
  const git = store.git(headRepo);
  return tip === pull.headSha || git.isAncestor(pull.headSha, tip) ? tip : null;
}

/** Paths the PR changes (git's three-dot diff, as GitHub shows it). */
export function changedPaths(store: Store, repo: Repo, pull: Pull): string[] {
  return store.git(repo).changedPaths(pull.baseSha, pull.headSha);
}

/**
 * Computes mergeability the way GitHub does in the background: a trial merge of the head into
 * the base branch's current head. A forced conflict (`sandbox.setConflict`) wins.
 */
export function computeMergeable(store: Store, repo: Repo, pull: Pull): boolean {
  if (pull.conflicting) return false;
  const base = repo.branches.get(pull.baseRef) ?? pull.baseSha;
  return store.git(repo).trialMerge(base, pull.headSha) !== null;
}

function globToRegex(pattern: string): RegExp {
  let p = pattern;
  const anchored = p.startsWith("/");
  if (anchored) p = p.slice(1);
  if (p.endsWith("/")) p = `${p}**`;
  const body = p
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .split("**")
    .map((part) => part.replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]"))
    .join(".*");
  const hasSlash = p.includes("/");
  return new RegExp(`${anchored || hasSlash ? "^" : "(^|/)"}${body}(/.*)?$`);
}

/** Users CODEOWNERS names for the changed paths (last matching rule wins, as on GitHub). */
export function codeOwners(store: Store, repo: Repo, pull: Pull): number[] {
  const git = store.git(repo);
  const base = `refs/heads/${pull.baseRef}`;
  const text =
    git.readFile(base, ".github/CODEOWNERS") ??
    git.readFile(base, "CODEOWNERS") ??
    git.readFile(base, "docs/CODEOWNERS");
  if (!text) return [];
  const rules = text
    .split("\n")
    .map((line) => line.replace(/#.*/, "").trim())
    .filter(Boolean)
    .map((line) => {
      const [pattern = "", ...owners] = line.split(/\s+/);
      return { regex: globToRegex(pattern), owners };
    });
  const ids = new Set<number>();
  for (const path of changedPaths(store, repo, pull)) {
    const rule = rules.filter((r) => r.regex.test(path)).pop();
    for (const owner of rule?.owners ?? []) {
      const user =
        owner.startsWith("@") && !owner.includes("/")
          ? store.userByLogin(owner.slice(1))
          : undefined;
      if (user) ids.add(user.id);
    }
  }
  return [...ids];
}
