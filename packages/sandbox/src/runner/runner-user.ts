import { execFileSync } from "node:child_process";
import { existsSync, lchownSync, lstatSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The account jobs run as, like GitHub-hosted Ubuntu runners' `runner` (passwordless sudo). */
export interface RunnerUser {
  name: string;
  uid: number;
  gid: number;
}

const NAME = "runner";
const SUDOERS = "/etc/sudoers.d/runner";
let cached: RunnerUser | null = null;

function lookup(): RunnerUser | null {
  try {
    const uid = Number(execFileSync("id", ["-u", NAME], { stdio: "pipe" }).toString().trim());
    const gid = Number(execFileSync("id", ["-g", NAME], { stdio: "pipe" }).toString().trim());
    return { name: NAME, uid, gid };
  } catch {
    return null;
  }
}

/**
 * The non-root `runner` user every job runs as, created on first use (idempotent): a home
 * directory, bash, and passwordless sudo through /etc/sudoers.d, as on GitHub-hosted runners.
 * Creating it needs root and the `sudo` package; without them this throws saying what to do.
 */
export function runnerUser(): RunnerUser {
  if (cached) return cached;
  const isRoot = process.getuid?.() === 0;
  const sudo = ["/usr/bin/sudo", "/bin/sudo"].some((p) => existsSync(p));
  if (!sudo) {
    throw new Error(
      "sandbox runner: jobs run as the non-root `runner` user with passwordless sudo, as on GitHub-hosted runners, but `sudo` is not installed: run `apt-get install -y sudo` as root (.ci/run does).",
    );
  }
  let user = lookup();
  if (!user) {
    if (!isRoot) {
      throw new Error(
        "sandbox runner: the `runner` user does not exist and only root can create it: run the tests as root once, or `sudo useradd --create-home --shell /bin/bash runner` and add `runner ALL=(ALL) NOPASSWD:ALL` to /etc/sudoers.d/runner.",
      );
    }
    try {
      execFileSync("useradd", ["--create-home", "--shell", "/bin/bash", NAME], { stdio: "pipe" });
    } catch (error) {
      // A parallel worker may have created it first.
      if (!lookup()) throw new Error(`sandbox runner: useradd runner failed: ${String(error)}`);
    }
    user = lookup();
    if (!user) throw new Error("sandbox runner: useradd runner left no runner user");
  }
  if (isRoot && !existsSync(SUDOERS)) {
    writeFileSync(SUDOERS, `${NAME} ALL=(ALL) NOPASSWD:ALL\n`, { mode: 0o440 });
  }
  if (!isRoot && process.getuid?.() !== user.uid) {
    throw new Error(
      "sandbox runner: jobs run as the `runner` user, which needs the sandbox to run as root (or as runner itself).",
    );
  }
  cached = user;
  return user;
}

/** Hands a job's directory tree to the runner user (the sandbox, as root, prepared it). */
export function chownTree(path: string, user: RunnerUser): void {
  if (process.getuid?.() !== 0) return;
  const walk = (p: string): void => {
    lchownSync(p, user.uid, user.gid);
    if (lstatSync(p).isDirectory()) for (const entry of readdirSync(p)) walk(join(p, entry));
  };
  walk(path);
}

/**
 * Makes a directory a test or the demo prepared (as root) the runner user's, as files a job
 * reads or writes on a hosted runner belong to `runner`: e.g. a scratch action or an output dir.
 */
export function giveToRunner(path: string): string {
  chownTree(path, runnerUser());
  return path;
}
