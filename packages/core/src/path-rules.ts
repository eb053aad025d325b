/**
 * Whether a repository path matches a glob of `.github/loopx.yml`'s path rules: `**` spans any
 * number of directories (`docs/**`, `**\/*.sql`), `*` and `?` stay within one name, anything
 * else is literal. The whole path must match.
 */
export function matchesGlob(path: string, glob: string): boolean {
  return globToRegExp(glob).test(path);
}

/** A path rule as the push grant carries it: globs, and the scopes a gate must approve. */
export interface PathRule {
  paths: readonly string[];
  scopes: readonly string[];
}

/** `.github` itself or anything under it, however it is cased (case-insensitive checkouts exist). */
export const UNDER_GITHUB = /^\.github(\/|$)/i;

/**
 * Workflow files: GitHub refuses them from a token without the `workflows` permission, which
 * LoopX's never has, so only a person can push them.
 */
export const UNDER_WORKFLOWS = /^\.github\/workflows(\/|$)/i;

/** The scope a gate approves so one push may change `.github/` (the workflows and their secrets). */
export const WORKFLOW_PATHS_SCOPE = "write:.github";

/**
 * The scopes a person must approve before `paths` may be pushed: `write:.github` for a change
 * under `.github/` while it is guarded, and the scopes of every rule a path matches. Sorted, so
 * the same refusal asks the same question.
 */
export function scopesGuarding(
  paths: readonly string[],
  rules: readonly PathRule[],
  o: { githubGuarded: boolean },
): string[] {
  const scopes = new Set<string>();
  for (const path of paths) {
    if (o.githubGuarded && UNDER_GITHUB.test(path)) scopes.add(WORKFLOW_PATHS_SCOPE);
    for (const rule of rules) {
      if (rule.paths.some((glob) => matchesGlob(path, glob))) {
        for (const s of rule.scopes) scopes.add(s);
      }
    }
  }
  return [...scopes].sort();
}

function globToRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] ?? "";
    if (c === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      // `**/` matches zero or more directories; a final `**` matches everything below.
      re += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") {
      re += "[^/]*";
    } else if (c === "?") {
      re += "[^/]";
    } else {
      re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
  }
  return new RegExp(`^${re}$`);
}
