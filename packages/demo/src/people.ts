/**
 * The people the demo plays, each with their own user token on the sandbox's REST API: the
 * owner files the issue, approves and merges; the reviewer requests changes. LoopX sees
 * them exactly as it would see people on GitHub — through webhooks, with their permissions.
 */
import { Octokit } from "@octokit/rest";
import { z } from "zod";
import { DEMO_REPO, ISSUE, REVIEW_LINE, REVIEW_REQUEST } from "./demo-project.ts";
import type { Stack } from "./start-stack.ts";

export interface People {
  /** Files the issue-fix loop's issue, or the one given. */
  fileIssue(issue?: { title: string; body: string }): Promise<number>;
  labelIssue(issue: number): Promise<void>;
  comment(issue: number, body: string): Promise<void>;
  /** The owner's "Run workflow" on the tick workflow, when no dispatch is waiting. */
  dispatchTick(issue: number): Promise<void>;
  /** The reviewer's "request changes", with a line comment on the loop (a review thread). */
  requestChanges(pr: number, headSha: string): Promise<void>;
  /** The reviewer looks again and resolves their threads; how many were resolved. */
  resolveThreads(pr: number): Promise<number>;
  approve(pr: number, headSha: string): Promise<void>;
  /** Merges as the owner; the merge commit's sha. */
  merge(pr: number, headSha: string): Promise<string>;
}

const repo = { owner: DEMO_REPO.owner, repo: DEMO_REPO.name };

// Review threads and their resolution exist only in GitHub's GraphQL API.
const THREADS_QUERY = `query ($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) { reviewThreads(first: 50) { nodes { id isResolved } } }
  }
}`;
const RESOLVE = `mutation ($threadId: ID!) {
  resolveReviewThread(input: { threadId: $threadId }) { thread { id isResolved } }
}`;
const Threads = z.object({
  repository: z.object({
    pullRequest: z.object({
      reviewThreads: z.object({
        nodes: z.array(z.object({ id: z.string(), isResolved: z.boolean() })),
      }),
    }),
  }),
});

export function demoPeople(stack: Stack): People {
  const as = (token: string) =>
    new Octokit({ baseUrl: stack.sandbox.url, auth: token, request: { retries: 0 } });
  const owner = as(stack.tokens.owner);
  const reviewer = as(stack.tokens.reviewer);
  return {
    async fileIssue(issue = ISSUE) {
      const { data } = await owner.rest.issues.create({ ...repo, ...issue });
      return data.number;
    },
    async labelIssue(issue) {
      await owner.rest.issues.addLabels({ ...repo, issue_number: issue, labels: ["loopx"] });
    },
    async comment(issue, body) {
      await owner.rest.issues.createComment({ ...repo, issue_number: issue, body });
    },
    async dispatchTick(issue) {
      await owner.rest.actions.createWorkflowDispatch({
        ...repo,
        workflow_id: "loopx-tick.yml",
        ref: "main",
        inputs: { goal: String(issue) },
      });
    },
    async requestChanges(pr, headSha) {
      await reviewer.rest.pulls.createReview({
        ...repo,
        pull_number: pr,
        commit_id: headSha,
        event: "REQUEST_CHANGES",
        body: REVIEW_REQUEST,
        comments: [
          { path: REVIEW_LINE.path, line: REVIEW_LINE.line, side: "RIGHT", body: REVIEW_LINE.body },
        ],
      });
    },
    async resolveThreads(pr) {
      const answer = Threads.parse(
        await reviewer.graphql(THREADS_QUERY, { owner: repo.owner, name: repo.repo, number: pr }),
      );
      const open = answer.repository.pullRequest.reviewThreads.nodes.filter((t) => !t.isResolved);
      for (const thread of open) {
        await reviewer.graphql(RESOLVE, { threadId: thread.id });
      }
      return open.length;
    },
    async approve(pr, headSha) {
      await owner.rest.pulls.createReview({
        ...repo,
        pull_number: pr,
        commit_id: headSha,
        event: "APPROVE",
        body: "Looks good to me.",
      });
    },
    async merge(pr, headSha) {
      const { data } = await owner.rest.pulls.merge({
        ...repo,
        pull_number: pr,
        sha: headSha,
        merge_method: "merge",
      });
      return data.sha;
    },
  };
}
