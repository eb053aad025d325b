/**
 * The release an upgrade starts from, checked out and runnable: the newest `vX.Y.Z` tag HEAD
 * descends from (or LOOPX_UPGRADE_FROM), its tree from `git archive`, and its dependencies — HEAD's installed
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
 * The newest release tag HEAD descends from; before the first release, the commit of main that
 * HEAD forked from (on main itself: HEAD, what the first release will be cut from), so the path
 * is exercised from the start. A release is always upgraded from an ancestor, never from a
 * main that has moved on since.
 */
export function previousRelease(root: string, override = process.env.LOOPX_UPGRADE_FROM): Release {
  if (override)
    return { ref: override, sha: git(root, "rev-parse", "--verify", `${override}^{commit}`) };
  const tag = spawnSync("git", ["describe", "--tags", "--abbrev=0", "--match", "v*.*.*", "HEAD"], {
    cwd: root,
    encoding: "utf8",
  });
  if (tag.status === 0) {
    const ref = tag.stdout.trim();
    return { ref, sha: git(root, "rev-parse", `${ref}^{commit}`) };
  }
  // A pull request's checkout may have no local main, only the remote's.
  for (const main of ["main", "origin/main"]) {
    const base = spawnSync("git", ["merge-base", "HEAD", main], { cwd: root, encoding: "utf8" });
    if (base.status === 0) return { ref: `${main} where HEAD forked`, sha: base.stdout.trim() };
  }
  throw new Error(
    "no release tag and no main to upgrade from: fetch the history (actions/checkout with fetch-depth: 0) or set LOOPX_UPGRADE_FROM",
  );
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
