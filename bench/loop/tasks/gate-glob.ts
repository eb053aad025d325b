/**
 * The globs of a task's `gate.paths`: `**` spans folders, `*` and `?` stay within one path
 * segment. Kept to that much on purpose, so the bench and GitHub-style path filters agree on
 * every glob the corpus uses.
 */

export function globToRegExp(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob.charAt(i);
    if (c === "*" && glob[i + 1] === "*") {
      // "**/" also matches no folder at all: ".github/**/ci.yml" holds ".github/ci.yml".
      const slash = glob[i + 2] === "/";
      out += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else out += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/** Whether changing `path` needs a person's approval under these gate globs. */
export function isGated(globs: readonly string[], path: string): boolean {
  return globs.some((g) => globToRegExp(g).test(path));
}
