/**
 * The people the demo plays, each with their own user token on the sandbox's REST API: the
 * owner files the issue, approves and merges; the reviewer requests changes. LoopX sees
 * them exactly as it would see people on GitHub — through webhooks, with their permissions.
 */
import { Octokit } from "@octokit/rest";
import { DEMO_REPO, ISSUE, REVIEW_REQUEST } from "./demo-project.ts";
import type { Stack } from "./start-stack.ts";

export interface People {
  fileIssue(): Promise<number>;
  labelIssue(issue: number): Promise<void>;
  comment(issue: number, body: string): Promise<void>;
  /** The owner's "Run workflow" on the tick workflow, when no dispatch is waiting. */
  dispatchTick(issue: number): Promise<void>;
  requestChanges(pr: number, headSha: string): Promise<void>;
  approve(pr: number, headSha: string): Promise<void>;
  /** Merges as the owner; the merge commit's sha. */
  merge(pr: number, headSha: string): Promise<string>;
}

const repo = { owner: DEMO_REPO.owner, repo: DEMO_REPO.name };

export function demoPeople(stack: Stack): People {
  const as = (token: string) =>
    new Octokit({ baseUrl: stack.sandbox.url, auth: token, request: { retries: 0 } });
  const owner = as(stack.tokens.owner);
  const reviewer = as(stack.tokens.reviewer);
  return {
    async fileIssue() {
      const { data } = await owner.rest.issues.create({ ...repo, ...ISSUE });
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
      });
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
