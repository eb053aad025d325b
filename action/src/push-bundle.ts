import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitAuthEnv, runGit } from "./run-git.ts";

export type PushOutcome =
  | { status: "pushed" | "up_to_date"; headSha: string }
  | { status: "refused"; headSha: string; paths: string[] };

/**
 * Pushes ONE branch from the agent's bundle with the tick's token. The bundle comes from the
 * untrusted agent job, so only its `branch` ref is imported, and the commits new to the remote
 * are checked here: any path under `.github/` is refused unless a gate allowed workflow paths.
 * The work happens in a throwaway bare repository; the token is passed per command.
 */
export async function pushBundle(options: {
  bundlePath: string;
  branch: string;
  remoteUrl: string;
  token: string;
  allowWorkflowPaths: boolean;
  redact: (text: string) => string;
}): Promise<PushOutcome> {
  const { branch, remoteUrl, redact } = options;
  const ref = `refs/heads/${branch}`;
  const auth = gitAuthEnv(options.token);
  const dir = await mkdtemp(join(tmpdir(), "loopx-push-"));
  try {
    await runGit(dir, ["init", "--quiet", "--bare"]);
    const heads = await runGit(dir, ["bundle", "list-heads", options.bundlePath, ref], {
      allowFail: true,
    });
    if (heads.code !== 0 || !heads.stdout.includes(ref)) {
      throw new Error(
        `The agent's bundle has no ${ref}: the agent job did not produce the todo branch`,
      );
    }
    await runGit(dir, ["fetch", "--quiet", "--no-tags", options.bundlePath, `+${ref}:${ref}`], {
      redact,
    });
    const headSha = (await runGit(dir, ["rev-parse", ref])).stdout.trim();

    const listing = await runGit(dir, ["ls-remote", "--symref", remoteUrl, "HEAD", ref], {
      env: auth,
      redact,
    });
    const defaultRef = /^ref: (refs\/heads\/\S+)\s+HEAD$/m.exec(listing.stdout)?.[1];
    if (!defaultRef) throw new Error(`Could not read the default branch of ${remoteUrl}`);
    const remoteBranch = new RegExp(`^([0-9a-f]{40})\\s+${escapeRegExp(ref)}$`, "m").exec(
      listing.stdout,
    )?.[1];
    if (remoteBranch === headSha) return { status: "up_to_date", headSha };
    // Fetching what the remote has makes "new commits" exact; only missing objects travel.
    const wanted = [`+${defaultRef}:refs/remotes/origin/default`];
    if (remoteBranch) wanted.push(`+${ref}:refs/remotes/origin/branch`);
    await runGit(dir, ["fetch", "--quiet", "--no-tags", remoteUrl, ...wanted], {
      env: auth,
      redact,
    });
    const exclude = [
      "refs/remotes/origin/default",
      ...(remoteBranch ? ["refs/remotes/origin/branch"] : []),
    ];
    const log = await runGit(dir, [
      "log",
      "--format=",
      "--name-only",
      "--no-renames",
      ref,
      "--not",
      ...exclude,
    ]);
    const paths = [...new Set(log.stdout.split("\n").filter((p) => p.startsWith(".github/")))];
    if (paths.length > 0 && !options.allowWorkflowPaths) {
      return { status: "refused", headSha, paths };
    }
    // No force: if someone else moved the branch, the push fails instead of losing their work.
    await runGit(dir, ["push", "--quiet", remoteUrl, `${ref}:${ref}`], { env: auth, redact });
    return { status: "pushed", headSha };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
