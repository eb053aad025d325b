import { LOOPX_GIT_USER } from "@loopx/harness";
import { gitAuthEnv, runGit } from "./run-git.ts";

export interface PreparedBranch {
  /** True when the branch already existed on the remote (a later tick of the same todo). */
  existed: boolean;
  /** The commit the slice starts from. */
  base: string;
}

/**
 * Checks out the todo's branch in the working copy: the remote branch when an earlier tick
 * pushed it, otherwise a new branch from the checked-out commit (the default branch, where the
 * tick workflow runs). Runs before the slice, while the checkout is still the runner's. The
 * tick workflow passes no token (a full checkout has every branch); a read-only token, when a
 * workflow does pass one, is used for this one fetch only and never reaches the jail.
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
  if (!existed && !options.token) {
    // actions/checkout with fetch-depth: 0 fetched every branch: a missing one is new. A
    // shallow checkout fetched one branch only, so it cannot tell.
    const shallow = await runGit(workdir, ["rev-parse", "--is-shallow-repository"]);
    if (shallow.stdout.trim() === "true") {
      throw new Error(
        `${workdir} is a shallow checkout, which cannot tell whether ${branch} exists: check out with fetch-depth: 0 (the agent step gets no token to ask the remote)`,
      );
    }
  }
  if (!existed && options.token) {
    // exit 2: the remote has no such branch (first tick of this todo); other failures are real.
    const probe = await runGit(
      workdir,
      ["ls-remote", "--exit-code", "--heads", "origin", `refs/heads/${branch}`],
      { env: auth, allowFail: true, redact },
    );
    if (probe.code !== 0 && probe.code !== 2) {
      throw new Error(
        redact(
          `Could not ask the remote whether ${branch} exists (exit ${probe.code}): ${probe.stderr.trim()}. Check out with fetch-depth: 0, or pass a read-only \`token\`.`,
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
