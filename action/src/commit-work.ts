import { runGit } from "./run-git.ts";

/**
 * Commits whatever the slice left in the work tree, whatever its outcome (a timed-out slice's
 * half-done work is the next slice's starting point). Null when there was nothing to commit.
 */
export async function commitWork(options: {
  workdir: string;
  todo: string;
  tickId: string;
  outcome: string;
  reason: string;
}): Promise<{ sha: string; message: string } | null> {
  const { workdir } = options;
  await runGit(workdir, ["add", "--all", "--", "."]);
  const staged = await runGit(workdir, ["diff", "--cached", "--quiet"], { allowFail: true });
  if (staged.code === 0) return null;
  const subject = `loopx: ${options.todo} work in progress (${options.outcome})`;
  const body = `${options.reason.replace(/\s+/g, " ").slice(0, 500)}\n\nLoopX-Tick: ${options.tickId}`;
  await runGit(workdir, ["commit", "--quiet", "--no-verify", "-m", subject, "-m", body]);
  const sha = (await runGit(workdir, ["rev-parse", "HEAD"])).stdout.trim();
  return { sha, message: subject };
}
