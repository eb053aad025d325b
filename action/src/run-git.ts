import { execFile } from "node:child_process";

export interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitOptions {
  /** Extra environment (e.g. a one-command credential through GIT_CONFIG_*). */
  env?: Record<string, string>;
  /** Return a failed run instead of throwing. */
  allowFail?: boolean;
  /** Redacts error messages before they can reach a log. */
  redact?: (text: string) => string;
}

/** git with no prompts and no system or global config from the runner image. */
export function runGit(cwd: string, args: string[], options: GitOptions = {}): Promise<GitRun> {
  const redact = options.redact ?? ((t: string) => t);
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      args,
      {
        cwd,
        env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1", ...options.env },
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        if (code !== 0 && !options.allowFail) {
          reject(
            new Error(
              redact(
                `git ${args[0] ?? ""} failed (exit ${code}) in ${cwd}: ${stderr.trim() || stdout.trim()}`,
              ),
            ),
          );
          return;
        }
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * A credential for ONE git command, through GIT_CONFIG_* variables: never written to
 * .git/config and not on the command line (where other processes could read it).
 */
export function gitAuthEnv(token: string): Record<string, string> {
  const basic = Buffer.from(`x-access-token:${token}`).toString("base64");
  return {
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: "http.extraheader",
    GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}`,
  };
}
