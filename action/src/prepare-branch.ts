import { gitAuthEnv, runGit } from "./run-git.ts";

export interface PreparedBranch {
  /** True when the branch already existed on the remote (a later tick of the same todo). */
  existed: boolean;
  /** The commit the slice starts from. */
  base: string;
}

/** Identity of work-in-progress commits and of the agent's own commits. */
export const LOOPX_GIT_USER = { name: "loopx[bot]", email: "loopx[bot]@users.noreply.github.com" };

/**
 * Checks out the todo's branch in the working copy: the remote branch when an earlier tick
 * pushed it, otherwise a new branch from the checked-out commit (the default branch, where the
 * tick workflow runs). The read-only token, when given, is used for this one fetch only.
 */
export async function prepareBranch(options: {
  workdir: string;
  branch: string;
  token: string | undefined;
  redact: (text: string) => string;
}): Promise<PreparedBranch> {
  const { workdir, branch, redact } = options;
  const auth = options.token ? gitAuthEnv(options.token) : {};
  const inside = await runGit(workdir, ["rev-parse", "--is-inside-work-tree"], { allowFail: true });
  if (inside.code !== 0) {
    throw new Error(
      `${workdir} is not a git working copy: check the repository out first (actions/checkout with persist-credentials: false and fetch-depth: 0)`,
    );
  }
  const tracking = `refs/remotes/origin/${branch}`;
  let existed =
    (await runGit(workdir, ["rev-parse", "--verify", "--quiet", tracking], { allowFail: true }))
      .code === 0;
  if (!existed) {
    // exit 2: the remote has no such branch (first tick of this todo); other failures are real.
    const probe = await runGit(
      workdir,
      ["ls-remote", "--exit-code", "--heads", "origin", `refs/heads/${branch}`],
      { env: auth, allowFail: true, redact },
    );
    if (probe.code !== 0 && probe.code !== 2) {
      throw new Error(
        redact(
          `Could not ask the remote whether ${branch} exists (exit ${probe.code}): ${probe.stderr.trim()}. Pass \`token: \${{ github.token }}\` (contents: read) to the agent phase, or check out with fetch-depth: 0.`,
        ),
      );
    }
    if (probe.code === 0) {
      await runGit(
        workdir,
        ["fetch", "--quiet", "--no-tags", "origin", `+refs/heads/${branch}:${tracking}`],
        { env: auth, redact },
      );
      existed = true;
    }
  }
  await runGit(workdir, ["checkout", "--quiet", "-B", branch, ...(existed ? [tracking] : [])], {
    redact,
  });
  await runGit(workdir, ["config", "user.name", LOOPX_GIT_USER.name]);
  await runGit(workdir, ["config", "user.email", LOOPX_GIT_USER.email]);
  const base = (await runGit(workdir, ["rev-parse", "HEAD"])).stdout.trim();
  return { existed, base };
}
