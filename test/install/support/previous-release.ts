/**
 * The release an upgrade starts from, checked out and runnable: the newest `vX.Y.Z` tag (or
 * LOOPX_UPGRADE_FROM), its tree from `git archive`, and its dependencies — HEAD's installed
 * ones when its lockfile is HEAD's, else its own production install from the npm cache.
 */
import { execFileSync, execSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";

export interface Release {
  /** What was asked for: a tag, or the fallback ref while nothing is tagged. */
  ref: string;
  sha: string;
}

const git = (root: string, ...args: string[]) =>
  execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();

/**
 * The newest release tag; before the first release, `main` (what the first release will be
 * cut from), so the path is exercised from the start.
 */
export function previousRelease(root: string, override = process.env.LOOPX_UPGRADE_FROM): Release {
  const tags = git(root, "tag", "--list", "v*.*.*", "--sort=-v:refname")
    .split("\n")
    .filter((t) => /^v\d+\.\d+\.\d+$/.test(t));
  const ref = override || tags[0] || "main";
  return { ref, sha: git(root, "rev-parse", "--verify", `${ref}^{commit}`) };
}

/** Checks `sha` out into `dir` with its dependencies; returns `dir`. */
export function checkoutRelease(root: string, sha: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  execSync(`git archive --format=tar ${sha} | tar -x -C ${JSON.stringify(dir)}`, { cwd: root });
  const same =
    readFileSync(join(dir, "package-lock.json"), "utf8") ===
    readFileSync(join(root, "package-lock.json"), "utf8");
  if (same) {
    // HEAD's installed packages, but the workspace links point into the release's tree.
    const modules = join(dir, "node_modules");
    mkdirSync(modules);
    for (const entry of readdirSync(join(root, "node_modules"))) {
      if (entry === "@loopx") {
        cpSync(join(root, "node_modules", entry), join(modules, entry), {
          recursive: true,
          verbatimSymlinks: true,
        });
      } else {
        symlinkSync(join(root, "node_modules", entry), join(modules, entry));
      }
    }
    return dir;
  }
  const install = spawnSync("npm", ["ci", "--omit=dev", "--offline", "--no-audit", "--no-fund"], {
    cwd: dir,
    encoding: "utf8",
  });
  if (install.status !== 0)
    throw new Error(
      `the release's production install failed (npm ci --omit=dev --offline): run \`npm ci --omit=dev\` once in a checkout of ${sha} to cache its dependencies.\n${install.stderr}`,
    );
  return dir;
}
