import type { CheckRunWrite, GitHubPort } from "@loopx/github";
import type { ProbotOctokit } from "probot";
import { z } from "zod";

type Octokit = InstanceType<typeof ProbotOctokit>;
type Call = <T>(what: string, fn: () => Promise<T>) => Promise<T>;

/** The check-run verbs of the port: LoopX's own checks on its PRs' heads. */
export type CheckVerbs = Pick<GitHubPort, "createCheckRun" | "updateCheckRun">;

const Created = z.object({ id: z.number().int().positive() });

const fields = (run: CheckRunWrite) => ({
  name: run.name,
  status: "completed" as const,
  conclusion: run.conclusion,
  details_url: run.detailsUrl,
  output: { title: run.title, summary: run.summary },
});

export function createCheckVerbs(octokit: Octokit, call: Call): CheckVerbs {
  const where = (repo: { owner: string; repo: string }) => `${repo.owner}/${repo.repo}`;
  return {
    createCheckRun: (repo, headSha, run) =>
      call(
        `creating check run ${run.name} on ${headSha.slice(0, 12)} in ${where(repo)}`,
        async () => {
          const { data } = await octokit.rest.checks.create({
            ...repo,
            head_sha: headSha,
            ...fields(run),
          });
          return { id: Created.parse(data).id };
        },
      ),
    updateCheckRun: (repo, id, run) =>
      call(`updating check run ${run.name} (${id}) in ${where(repo)}`, async () => {
        await octokit.rest.checks.update({ ...repo, check_run_id: id, ...fields(run) });
      }),
  };
}
