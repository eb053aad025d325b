import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** git as a developer's machine runs it, but with no user/system config from the host. */
export const GIT_ENV = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  GIT_TERMINAL_PROMPT: "0",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Dev",
  GIT_AUTHOR_EMAIL: "dev@example.invalid",
  GIT_COMMITTER_NAME: "Dev",
  GIT_COMMITTER_EMAIL: "dev@example.invalid",
};

/**
 * Runs git asynchronously: the sandbox serves git over HTTP in this same process, so a
 * synchronous child would block the server it talks to.
 */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await gitTry(cwd, ...args);
  if (out.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${out.stderr}`);
  return out.stdout;
}

/** Runs git expecting it may fail: exit status, stdout and stderr. */
export function gitTry(
  cwd: string,
  ...args: string[]
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile("git", args, { cwd, env: GIT_ENV, timeout: 20_000 }, (error, stdout, stderr) => {
      const code = error && typeof error.code === "number" ? error.code : error ? 1 : 0;
      resolve({ status: code, stdout, stderr });
    });
  });
}

/** `-c http.extraHeader=…`: GitHub's Basic `x-access-token:<token>` without storing the token. */
export function auth(token: string): string[] {
  const basic = Buffer.from(`x-access-token:${token}`).toString("base64");
  return ["-c", `http.extraHeader=Authorization: Basic ${basic}`];
}

export function tempDir(prefix = "sandbox-git-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Clones over HTTP into a fresh directory and returns it. */
export async function clone(url: string, token: string): Promise<string> {
  const dir = join(tempDir(), "work");
  await git(tmpdir(), ...auth(token), "clone", "--quiet", url, dir);
  return dir;
}

/** Writes a file, commits it and returns the new sha. */
export async function commitFile(
  dir: string,
  path: string,
  text: string,
  message = `edit ${path}`,
): Promise<string> {
  execFileSync(
    "bash",
    ["-c", `mkdir -p "$(dirname "$1")" && printf '%s' "$2" > "$1"`, "_", path, text],
    {
      cwd: dir,
    },
  );
  await git(dir, "add", path);
  await git(dir, "commit", "--quiet", "-m", message);
  return (await git(dir, "rev-parse", "HEAD")).trim();
}
