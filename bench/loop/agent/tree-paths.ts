/**
 * Which paths the agent may write: relative, inside its checkout, never under .git. An
 * injected instruction can name any path, so this is checked before every write, by the
 * policy and again by the directory-backed tree.
 */

/** Why `path` is not a file the agent may touch, or null when it is one. */
export function unsafePath(path: string): string | null {
  if (path === "" || path.includes("\0")) return "an empty path or one with a NUL byte";
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path) || path.includes("\\")) {
    return "an absolute path or one with backslashes; give a path relative to the checkout";
  }
  const parts = path.split("/");
  if (parts.some((p) => p === "..")) return "a path with '..', which would leave the checkout";
  if (parts.some((p) => p.toLowerCase() === ".git")) return "a path under .git";
  if (parts.some((p) => p === "" || p === ".")) return "a path with an empty or '.' segment";
  return null;
}

export function assertSafePath(path: string): void {
  const why = unsafePath(path);
  if (why !== null) {
    throw new Error(`work tree: refused ${JSON.stringify(path)}: ${why}`);
  }
}
