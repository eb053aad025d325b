import { GitHubError, type GitHubPort, type RepoName } from "@loopx/github";
import type { ProbotOctokit } from "probot";
import { z } from "zod";

type Octokit = InstanceType<typeof ProbotOctokit>;
type Call = <T>(what: string, fn: () => Promise<T>) => Promise<T>;

/** The CI verbs of the port: what a base requires, what a head says, runs waiting for people. */
export type CiVerbs = Pick<
  GitHubPort,
  "requiredChecks" | "commitMessage" | "listWaitingRuns" | "approveRun" | "cancelRun"
>;

/** "Get rules for a branch": every active rule of every ruleset (repository or organization). */
const BranchRules = z.array(
  z.object({
    type: z.string(),
    parameters: z
      .object({ required_status_checks: z.array(z.object({ context: z.string() })).optional() })
      .passthrough()
      .nullable()
      .optional(),
  }),
);

/** "Get a branch": classic protection's required checks, readable with contents: read. */
const Branch = z.object({
  protection: z
    .object({
      required_status_checks: z
        .object({
          enforcement_level: z.string().optional(),
          contexts: z.array(z.string()).default([]),
          checks: z
            .array(z.object({ context: z.string() }))
            .optional()
            .default([]),
        })
        .nullable()
        .optional(),
    })
    .optional(),
});

const WaitingRuns = z.object({
  workflow_runs: z.array(
    z.object({
      id: z.number(),
      name: z.string().nullable().optional(),
      html_url: z.string(),
    }),
  ),
});

export function createCiVerbs(octokit: Octokit, call: Call): CiVerbs {
  const where = (repo: RepoName) => `${repo.owner}/${repo.repo}`;
  return {
    requiredChecks: (repo, branch) =>
      call(`reading the checks ${where(repo)}'s ${branch} requires`, async () => {
        const rules = BranchRules.parse(
          await octokit.paginate("GET /repos/{owner}/{repo}/rules/branches/{branch}", {
            ...repo,
            branch,
            per_page: 100,
          }),
        );
        const fromRulesets = rules.flatMap((r) =>
          r.type === "required_status_checks"
            ? (r.parameters?.required_status_checks ?? []).map((c) => c.context)
            : [],
        );
        const { data } = await octokit.rest.repos.getBranch({ ...repo, branch });
        const classic = Branch.parse(data).protection?.required_status_checks;
        const fromProtection =
          classic && classic.enforcement_level !== "off"
            ? [...classic.contexts, ...classic.checks.map((c) => c.context)]
            : [];
        return [...new Set([...fromRulesets, ...fromProtection])];
      }),

    commitMessage: (repo, sha) =>
      call(`reading commit ${sha.slice(0, 12)} of ${where(repo)}`, async () => {
        const { data } = await octokit.rest.repos.getCommit({ ...repo, ref: sha });
        return z.object({ commit: z.object({ message: z.string() }) }).parse(data).commit.message;
      }),

    listWaitingRuns: (repo, headSha) =>
      call(
        `reading the workflow runs waiting on ${headSha.slice(0, 12)} in ${where(repo)}`,
        async () => {
          const { data } = await octokit.rest.actions.listWorkflowRunsForRepo({
            ...repo,
            head_sha: headSha,
            status: "action_required",
            per_page: 100,
          });
          return WaitingRuns.parse(data).workflow_runs.map((run) => ({
            name: run.name ?? `workflow run ${run.id}`,
            status: "action_required" as const,
            url: run.html_url,
            runId: run.id,
          }));
        },
      ),

    approveRun: (repo, runId) =>
      call(`approving workflow run ${runId} in ${where(repo)}`, async () => {
        await octokit.rest.actions.approveWorkflowRun({ ...repo, run_id: runId });
      }),

    cancelRun: async (repo, runId, force) => {
      const what = `${force ? "force-cancelling" : "cancelling"} workflow run ${runId} in ${where(repo)}`;
      try {
        await call(what, async () => {
          if (force) await octokit.rest.actions.forceCancelWorkflowRun({ ...repo, run_id: runId });
          else await octokit.rest.actions.cancelWorkflowRun({ ...repo, run_id: runId });
        });
        return "cancelling";
      } catch (error) {
        // "Cancel a workflow run": 409 Conflict once the run is completed.
        if (error instanceof GitHubError && error.status === 409) return "completed";
        throw error;
      }
    },
  };
}
