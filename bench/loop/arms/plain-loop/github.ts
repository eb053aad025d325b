/**
 * What a plain workflow loop does through GitHub's REST API, as its `gh` calls would: read the
 * objective's issue and comments, find the open pull request from a branch with its check runs
 * and reviews, open a pull request. Every answer is parsed with zod (the sandbox is another
 * package's code); the calls go over HTTP with an installation token, like a job's.
 */
import { z } from "zod";
import type { Sandbox } from "../../../../packages/sandbox/src/index.ts";
import type { PullCheck, PullReview, PullView, ReadTools } from "../../agent/agent-types.ts";
import { CheckRun, Pull, RepoRest, RestError, Review } from "../../world/rest.ts";

const Issue = z.object({
  number: z.number().int(),
  title: z.string(),
  body: z.string().nullable(),
});
const IssueComment = z.object({
  body: z.string(),
  user: z.object({ login: z.string() }).nullable(),
  created_at: z.string(),
});
const CheckRuns = z.object({ check_runs: z.array(CheckRun) });

/**
 * The token a job pushes and opens pull requests with: B1's AGENT_PUSH_TOKEN, a GitHub App
 * installation token (so its pushes and pull requests start CI, unlike GITHUB_TOKEN's), with the
 * workflow's permissions and no `workflows`. Minted per run, as a job gets a fresh token.
 */
export interface JobIdentity {
  /** The App's bot login: the author of the pushes and the pull requests. */
  login: string;
  client(): RepoRest;
}

export function installJobIdentity(sandbox: Sandbox, repo: string, slug: string): JobIdentity {
  const { app } = sandbox.createApp({
    slug,
    permissions: {
      contents: "write",
      pull_requests: "write",
      issues: "write",
      checks: "read",
      actions: "read",
      metadata: "read",
    },
  });
  const owner = repo.split("/")[0] ?? repo;
  const installation = sandbox.install(app.id, owner, [repo]);
  return {
    login: `${slug}[bot]`,
    client: () => new RepoRest(sandbox.url, repo, sandbox.installationToken(installation.id)),
  };
}

export interface PullContext {
  number: number;
  headSha: string;
  /** The latest verdict (approve or request changes) asks for changes to this very head. */
  changesRequestedOnHead: boolean;
  view: PullView;
}

/** The open pull request from `branch` (`gh pr list --head`), with its head's checks and reviews. */
export async function openPullFrom(rest: RepoRest, branch: string): Promise<PullContext | null> {
  const open = await rest.call(
    "GET",
    `/pulls?state=open&head=${encodeURIComponent(branch)}&per_page=100`,
    z.array(Pull),
  );
  const pull = open.find((p) => p.head.ref === branch);
  if (!pull) return null;
  const runs = (
    await rest.call("GET", `/commits/${pull.head.sha}/check-runs?per_page=100`, CheckRuns)
  ).check_runs;
  const reviews = await rest.call(
    "GET",
    `/pulls/${pull.number}/reviews?per_page=100`,
    z.array(Review),
  );
  // A verdict on an older head was answered by the push that made this one.
  const verdicts = reviews.filter((r) => r.state === "CHANGES_REQUESTED" || r.state === "APPROVED");
  const latest = verdicts.at(-1);
  return {
    number: pull.number,
    headSha: pull.head.sha,
    changesRequestedOnHead:
      latest?.state === "CHANGES_REQUESTED" && latest.commit_id === pull.head.sha,
    view: pullView(pull.number, runs, reviews),
  };
}

const REVIEW_STATE: Record<string, PullReview["state"]> = {
  APPROVED: "approved",
  CHANGES_REQUESTED: "changes_requested",
  COMMENTED: "commented",
};

function pullView(number: number, runs: CheckRun[], reviews: Review[]): PullView {
  const checks: PullCheck[] = runs.map((r) => ({
    name: r.name,
    // A run still going has no conclusion yet: the agent sees its status instead.
    conclusion: r.conclusion ?? r.status,
    summary: r.output.summary ?? r.output.title ?? "",
  }));
  const seen: PullReview[] = reviews.flatMap((r) => {
    const state = REVIEW_STATE[r.state];
    return state ? [{ author: r.user?.login ?? "ghost", state, body: r.body ?? "" }] : [];
  });
  return { number, checks, reviews: seen };
}

export interface IssueContext {
  objective: string;
  comments: { author: string; body: string; at: string }[];
}

export async function readIssue(rest: RepoRest, issue: number): Promise<IssueContext> {
  const found = await rest.call("GET", `/issues/${issue}`, Issue);
  const comments = await rest.call(
    "GET",
    `/issues/${issue}/comments?per_page=100`,
    z.array(IssueComment),
  );
  return {
    objective: `# ${found.title}\n\n${found.body ?? ""}`,
    comments: comments.map((c) => ({
      author: c.user?.login ?? "ghost",
      body: c.body,
      at: c.created_at,
    })),
  };
}

/** The read tools the agent gets: what the job gathered, as of the job's start. */
export function readTools(issue: IssueContext, pull: PullContext | null): ReadTools {
  return {
    issueComments: () => issue.comments.map(({ author, body }) => ({ author, body })),
    pull: () => pull?.view ?? null,
  };
}

/**
 * Opens a pull request from `branch` into main; null when GitHub refuses it because the
 * branch has no commits main lacks (the workflow's `compare … ahead_by` check), which is how
 * a run that changed nothing after a merge ends.
 */
export async function openPull(
  rest: RepoRest,
  branch: string,
  title: string,
  body: string,
): Promise<number | null> {
  try {
    return (await rest.createPull(branch, title, body)).number;
  } catch (error) {
    if (error instanceof RestError && error.status === 422) return null;
    throw error;
  }
}

const FAILED = new Set(["failure", "timed_out", "cancelled", "action_required"]);

/**
 * Work to answer: the latest verdict asks for changes to the current head, or a check on the
 * head failed. A request about an older head was answered by the push that made this one.
 */
export function hasFeedback(pull: PullContext | null): boolean {
  if (pull === null) return false;
  return pull.changesRequestedOnHead || pull.view.checks.some((c) => FAILED.has(c.conclusion));
}
