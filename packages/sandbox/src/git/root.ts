import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GIT_ENV, GitRepo, type Person } from "./git.ts";

/**
 * The directory holding every sandbox repository as `<owner>/<name>.git` (the layout
 * `git http-backend` serves with GIT_PROJECT_ROOT), plus scratch space for CI and runner jobs.
 * Created on first use so the sandbox starts fast.
 */
export class GitRoot {
  private dir: string | null = null;

  get path(): string {
    if (!this.dir) {
      const dir = mkdtempSync(join(tmpdir(), "loopx-sandbox-"));
      // Jobs run as the non-root `runner` user: it may pass through to its own job directories
      // but never list them, nor read the repositories on disk (only git over HTTP, as on GitHub).
      chmodSync(dir, 0o711);
      mkdirSync(join(dir, "repos"), { mode: 0o700 });
      this.dir = dir;
    }
    return this.dir;
  }

  /** Creates the bare repository with an initial commit of `files` on `branch`. */
  create(
    fullName: string,
    branch: string,
    files: Record<string, string>,
    who: Person,
  ): { gitDir: string; head: string } {
    const gitDir = join(this.path, "repos", `${fullName}.git`);
    const git = GitRepo.init(gitDir, branch);
    const head = git.commit(branch, files, "Initial commit", who, null);
    return { gitDir, head };
  }

  /** A fork: a bare clone of the parent's branches (GitHub shares objects; a copy is enough). */
  fork(parentDir: string, fullName: string): string {
    const gitDir = join(this.path, "repos", `${fullName}.git`);
    execFileSync("git", ["clone", "--quiet", "--bare", parentDir, gitDir], { env: GIT_ENV });
    new GitRepo(gitDir).run(["config", "http.receivepack", "true"]);
    return gitDir;
  }

  /** A fresh scratch directory (job workspaces, CI checkouts). */
  scratch(prefix: string): string {
    return mkdtempSync(join(this.path, `${prefix}-`));
  }

  dispose(): void {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
  }
}
