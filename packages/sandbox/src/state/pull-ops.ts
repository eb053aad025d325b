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

/** Paths whose content differs between two branches of the sandbox repository. */
export function changedPaths(repo: Repo, head: string, base: string): string[] {
  const a = repo.files.get(head) ?? new Map<string, string>();
  const b = repo.files.get(base) ?? new Map<string, string>();
  const paths = new Set([...a.keys(), ...b.keys()]);
  return [...paths].filter((p) => a.get(p) !== b.get(p)).sort();
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
  const files = repo.files.get(pull.baseRef) ?? new Map<string, string>();
  const text =
    files.get(".github/CODEOWNERS") ?? files.get("CODEOWNERS") ?? files.get("docs/CODEOWNERS");
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
  for (const path of changedPaths(repo, pull.headRef, pull.baseRef)) {
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
