/**
 * Whether a repository path matches a glob of `.github/loopx.yml`'s path rules: `**` spans any
 * number of directories (`docs/**`, `**\/*.sql`), `*` and `?` stay within one name, anything
 * else is literal. The whole path must match.
 */
export function matchesGlob(path: string, glob: string): boolean {
  return globToRegExp(glob).test(path);
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
