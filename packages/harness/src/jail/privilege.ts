import { execFile } from "node:child_process";

/** The PATH root commands are looked up in (sudo's secure_path on Debian and Ubuntu). */
export const SECURE_PATH = "/usr/sbin:/usr/bin:/sbin:/bin";

/** Why the jail cannot be built or did not hold: the slice fails closed with this message. */
export class JailError extends Error {
  constructor(
    readonly kind: "unavailable" | "breach",
    message: string,
  ) {
    super(message);
    this.name = "JailError";
  }
}

export interface RootRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The argv prefix that runs a command as root: nothing as root, else `sudo -n` (never a prompt). */
export function rootPrefix(): string[] {
  return process.getuid?.() === 0 ? [] : ["sudo", "-n", "--"];
}

/**
 * Runs one command as root with a fixed environment (sudo resets it anyway). Never throws for
 * the command's failure: callers decide what a non-zero exit means.
 */
export function asRoot(argv: string[], options: { input?: string } = {}): Promise<RootRun> {
  const [command, ...args] = [...rootPrefix(), ...argv];
  return new Promise((resolve) => {
    const child = execFile(
      command ?? "true",
      args,
      { env: { PATH: SECURE_PATH, LANG: "C.UTF-8" }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 127) : 0;
        resolve({ code, stdout, stderr: stderr || (error && code === 127 ? error.message : "") });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Like asRoot, but a failure is a JailError naming what went wrong and what would fix it. */
export async function mustAsRoot(argv: string[], what: string): Promise<RootRun> {
  const run = await asRoot(argv);
  if (run.code !== 0) {
    throw new JailError(
      "unavailable",
      `${what} failed (exit ${run.code}): ${(run.stderr || run.stdout).trim().slice(0, 500)}`,
    );
  }
  return run;
}

/**
 * Checks, once per jail, that it can be built here: root (directly or by passwordless sudo),
 * util-linux's unshare and setpriv, and PID + mount namespaces that root may create (a
 * container without CAP_SYS_ADMIN refuses them). Throws a JailError saying what is missing.
 */
export async function checkJailSupport(): Promise<void> {
  if (process.platform !== "linux") {
    throw new JailError(
      "unavailable",
      "the agent's jail needs Linux namespaces; run on a Linux runner",
    );
  }
  if (rootPrefix().length > 0) {
    const sudo = await asRoot(["true"]);
    if (sudo.code !== 0) {
      throw new JailError(
        "unavailable",
        `the agent's jail needs root or passwordless sudo, and \`sudo -n true\` failed: ${sudo.stderr.trim() || `exit ${sudo.code}`}. GitHub-hosted runners have it; on a self-hosted runner give the runner's user passwordless sudo, or run the job as root.`,
      );
    }
  }
  const probe = await asRoot([
    "unshare",
    "--pid",
    "--mount",
    "--fork",
    "--mount-proc",
    "--",
    "sh",
    "-c",
    "command -v setpriv >/dev/null && command -v mountpoint >/dev/null && command -v bash >/dev/null",
  ]);
  if (probe.code !== 0) {
    throw new JailError(
      "unavailable",
      `the agent's jail needs util-linux (unshare, setpriv, mountpoint) and bash, and PID and mount namespaces created as root; the probe failed (exit ${probe.code}): ${probe.stderr.trim() || "a tool is missing"}. On a self-hosted runner in a container, allow unshare (CAP_SYS_ADMIN) or run the runner on the host.`,
    );
  }
}
