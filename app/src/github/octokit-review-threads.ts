import type { GitHubPort, RepoName } from "@loopx/github";
import type { ProbotOctokit } from "probot";
import { z } from "zod";

type Octokit = InstanceType<typeof ProbotOctokit>;
type Call = <T>(what: string, fn: () => Promise<T>) => Promise<T>;

/**
 * Review threads exist only in GitHub's GraphQL API (REST has no "resolved" flag). One page
 * of 100 is enough to decide: with more, `complete` is false and LoopX treats the review as
 * still open (it never assumes a thread it did not read is resolved).
 */
export const REVIEW_THREADS_QUERY = `query ($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100) {
        pageInfo { hasNextPage }
        nodes {
          isResolved
          comments(first: 1) { nodes { pullRequestReview { databaseId } } }
        }
      }
    }
  }
}`;

const ThreadsResponse = z.object({
  repository: z
    .object({
      pullRequest: z
        .object({
          reviewThreads: z.object({
            pageInfo: z.object({ hasNextPage: z.boolean() }),
            nodes: z.array(
              z.object({
                isResolved: z.boolean(),
                comments: z.object({
                  nodes: z.array(
                    z.object({
                      pullRequestReview: z.object({ databaseId: z.number().nullable() }).nullable(),
                    }),
                  ),
                }),
              }),
            ),
          }),
        })
        .nullable(),
    })
    .nullable(),
});

export function createReviewThreadVerbs(
  octokit: Octokit,
  call: Call,
): Pick<GitHubPort, "listReviewThreads"> {
  return {
    listReviewThreads: (repo: RepoName, number: number) =>
      call(`reading the review threads of ${repo.owner}/${repo.repo}#${number}`, async () => {
        const raw = await octokit.graphql(REVIEW_THREADS_QUERY, {
          owner: repo.owner,
          name: repo.repo,
          number,
        });
        const pull = ThreadsResponse.parse(raw).repository?.pullRequest;
        if (!pull) return { threads: [], complete: false };
        const page = pull.reviewThreads;
        return {
          threads: page.nodes.map((t) => ({
            resolved: t.isResolved,
            reviewId: t.comments.nodes[0]?.pullRequestReview?.databaseId ?? null,
          })),
          complete: !page.pageInfo.hasNextPage,
        };
      }),
  };
}
