import type {
  CheckSnapshot,
  GitHubPort,
  PullSnapshot,
  RepoName,
  ReviewSnapshot,
} from "@loopx/github";
import type { ProbotOctokit } from "probot";
import { z } from "zod";

type Octokit = InstanceType<typeof ProbotOctokit>;

/** The pull-request verbs of the port (split from octokit-port.ts to keep modules small). */
export type PullVerbs = Pick<
  GitHubPort,
  | "getPull"
  | "findPullsByHead"
  | "createPull"
  | "updatePull"
  | "listChecks"
  | "listStatuses"
  | "listReviews"
  | "listPullFiles"
>;

type Call = <T>(what: string, fn: () => Promise<T>) => Promise<T>;

const PullResponse = z.object({
  number: z.number(),
  state: z.enum(["open", "closed"]),
  merged: z.boolean().nullable().optional(),
  /** Lists carry no `merged`, only when it merged. */
  merged_at: z.string().nullable().optional(),
  draft: z.boolean().nullable().optional(),
  mergeable: z.boolean().nullable().optional(),
  mergeable_state: z.string().nullable().optional(),
  merge_commit_sha: z.string().nullable().optional(),
  body: z.string().nullable().optional(),
  user: z.object({ login: z.string() }).nullable(),
  head: z.object({
    sha: z.string(),
    ref: z.string(),
    repo: z.object({ full_name: z.string() }).nullable().optional(),
  }),
  base: z.object({ ref: z.string() }),
  requested_reviewers: z
    .array(z.object({ login: z.string() }))
    .nullable()
    .optional(),
  /** Only on the full pull request (pulls/get, create, update), not in lists. */
  changed_files: z.number().int().nonnegative().optional(),
  additions: z.number().int().nonnegative().optional(),
  deletions: z.number().int().nonnegative().optional(),
});

/** One entry of `pulls/list-files`: the fields the gate preview shows. */
const PullFileItem = z
  .object({
    filename: z.string(),
    status: z.string(),
    additions: z.number().int().nonnegative(),
    deletions: z.number().int().nonnegative(),
    blob_url: z.string().nullable().optional(),
  })
  .transform(({ blob_url, ...file }) => ({
    ...file,
    // GitHub's blob URL names the PR's head commit: …/blob/<sha>/<path>.
    commit: /\/blob\/([0-9a-f]{7,64})\//.exec(blob_url ?? "")?.[1] ?? null,
  }));

/** GitHub's 422 for a head already in its base; its other 422s are not this. */
const ValidationFailed = z.object({
  status: z.literal(422),
  response: z.object({
    data: z.object({ errors: z.array(z.object({ message: z.string().optional() })) }),
  }),
});

/** The message of a 422 "Validation Failed" that starts with `prefix`, else null. */
function validationMessage(error: unknown, prefix: string): string | null {
  const parsed = ValidationFailed.safeParse(error);
  if (!parsed.success) return null;
  const messages = parsed.data.response.data.errors.map((e) => e.message ?? "");
  return messages.find((m) => m.startsWith(prefix)) ?? null;
}

export function toPullSnapshot(raw: unknown): PullSnapshot {
  const p = PullResponse.parse(raw);
  return {
    number: p.number,
    headSha: p.head.sha,
    headRef: p.head.ref,
    baseRef: p.base.ref,
    state: p.state,
    merged: p.merged ?? (p.merged_at !== null && p.merged_at !== undefined),
    author: p.user?.login ?? "ghost",
    requestedReviewers: (p.requested_reviewers ?? []).map((r) => r.login),
    headRepo: p.head.repo?.full_name ?? null,
    draft: p.draft ?? false,
    mergeable: p.mergeable ?? null,
    mergeableState: p.mergeable_state ?? null,
    mergeCommitSha: p.merge_commit_sha ?? null,
    body: p.body ?? "",
    size:
      p.changed_files !== undefined && p.additions !== undefined && p.deletions !== undefined
        ? { files: p.changed_files, insertions: p.additions, deletions: p.deletions }
        : null,
  };
}

const CheckRun = z.object({
  id: z.number(),
  name: z.string(),
  status: z.string(),
  conclusion: z.string().nullable().optional(),
  details_url: z.string().nullable().optional(),
  html_url: z.string().nullable().optional(),
  app: z.object({ slug: z.string(), id: z.number().optional() }).nullable().optional(),
  output: z
    .object({
      title: z.string().nullable().optional(),
      summary: z.string().nullable().optional(),
      text: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
});

/** A check run's own account of itself, as one text (what a failure's signature is read from). */
function outputText(run: z.infer<typeof CheckRun>): string {
  const o = run.output;
  return [o?.title, o?.summary, o?.text]
    .filter((part): part is string => typeof part === "string" && part !== "")
    .join("\n")
    .slice(0, 200_000);
}

/**
 * A completed run's conclusion as the PR monitor weighs it: success alone passes; neutral and
 * skipped are not success (nor failures to repair); `action_required` waits for a person;
 * anything else (failure, timed_out, cancelled, stale, unknown) failed.
 */
function checkStatus(run: z.infer<typeof CheckRun>): CheckSnapshot["status"] {
  if (run.status !== "completed") return "pending";
  switch (run.conclusion) {
    case "success":
    case "neutral":
    case "skipped":
    case "action_required":
      return run.conclusion;
    default:
      return "failure";
  }
}

const CombinedStatus = z.object({
  statuses: z.array(
    z.object({
      context: z.string(),
      state: z.enum(["error", "failure", "pending", "success"]),
      target_url: z.string().nullable().optional(),
      description: z.string().nullable().optional(),
    }),
  ),
});

/** A commit status counts like a check run: error and failure block, pending waits. */
const STATUS_OF = {
  error: "failure",
  failure: "failure",
  pending: "pending",
  success: "success",
} as const;

const Review = z.object({
  id: z.number(),
  user: z.object({ login: z.string() }).nullable(),
  state: z.string(),
  commit_id: z.string().nullable().optional(),
  body: z.string().nullable().optional(),
  submitted_at: z.string().nullable().optional(),
  html_url: z.string().nullable().optional(),
});

const REVIEW_STATES = {
  APPROVED: "approved",
  CHANGES_REQUESTED: "changes_requested",
  COMMENTED: "commented",
  DISMISSED: "dismissed",
} as const;

const ReviewState = z.enum(["APPROVED", "CHANGES_REQUESTED", "COMMENTED", "DISMISSED"]);

function reviewState(state: string): ReviewSnapshot["state"] {
  const known = ReviewState.safeParse(state);
  return known.success ? REVIEW_STATES[known.data] : "pending";
}

export function createPullVerbs(octokit: Octokit, call: Call): PullVerbs {
  const where = (repo: RepoName) => `${repo.owner}/${repo.repo}`;
  return {
    getPull: (repo, number) =>
      call(`reading ${where(repo)}#${number}`, async () => {
        const { data } = await octokit.rest.pulls.get({ ...repo, pull_number: number });
        return toPullSnapshot(data);
      }),

    findPullsByHead: (repo, branch) =>
      call(`listing ${where(repo)}'s pull requests from ${branch}`, async () => {
        const { data } = await octokit.rest.pulls.list({
          ...repo,
          state: "all",
          head: `${repo.owner}:${branch}`,
          sort: "created",
          direction: "desc",
          per_page: 100,
        });
        const full = where(repo).toLowerCase();
        // `head` filters by owner:branch; a fork's PR never counts as the todo branch's.
        return data
          .map(toPullSnapshot)
          .filter((p) => p.headRef === branch && p.headRepo?.toLowerCase() === full);
      }),

    createPull: (repo, pull) =>
      call(`opening a pull request from ${pull.head} in ${where(repo)}`, async () => {
        try {
          const { data } = await octokit.rest.pulls.create({ ...repo, ...pull });
          return toPullSnapshot(data);
        } catch (error) {
          const nothing = validationMessage(error, "No commits between ");
          if (nothing !== null) return { nothingToPull: true as const, message: nothing };
          const open = validationMessage(error, "A pull request already exists for ");
          if (open !== null) return { alreadyOpen: true as const, message: open };
          throw error;
        }
      }),

    updatePull: (repo, number, patch) =>
      call(`updating ${where(repo)}#${number}`, async () => {
        await octokit.rest.pulls.update({ ...repo, pull_number: number, ...patch });
      }),

    listChecks: (repo, ref) =>
      call(`reading the checks of ${ref.slice(0, 12)} in ${where(repo)}`, async () => {
        const { data } = await octokit.rest.checks.listForRef({ ...repo, ref, per_page: 100 });
        const runs = z.array(CheckRun).parse(data.check_runs);
        // Re-runs add runs under the same name: the newest one (largest id) is the verdict.
        const latest = new Map<string, z.infer<typeof CheckRun>>();
        for (const run of runs) {
          const seen = latest.get(run.name);
          if (!seen || seen.id < run.id) latest.set(run.name, run);
        }
        return [...latest.values()].map((run) => ({
          name: run.name,
          status: checkStatus(run),
          url: run.details_url ?? run.html_url ?? null,
          app: run.app?.slug ?? null,
          appId: run.app?.id ?? null,
          output: outputText(run),
        }));
      }),

    listStatuses: (repo, ref) =>
      call(`reading the commit statuses of ${ref.slice(0, 12)} in ${where(repo)}`, async () => {
        // The combined status holds the latest status per context (up to 100).
        const { data } = await octokit.rest.repos.getCombinedStatusForRef({
          ...repo,
          ref,
          per_page: 100,
        });
        return CombinedStatus.parse(data).statuses.map((s) => ({
          name: s.context,
          status: STATUS_OF[s.state],
          url: s.target_url ?? null,
          output: s.description ?? "",
        }));
      }),

    listReviews: (repo, number) =>
      call(`reading the reviews of ${where(repo)}#${number}`, async () => {
        const { data } = await octokit.rest.pulls.listReviews({
          ...repo,
          pull_number: number,
          per_page: 100,
        });
        return z
          .array(Review)
          .parse(data)
          .map((r) => ({
            id: r.id,
            author: r.user?.login ?? "ghost",
            state: reviewState(r.state),
            commitId: r.commit_id ?? "",
            body: r.body ?? "",
            submittedAt: r.submitted_at ? new Date(r.submitted_at) : null,
            url: r.html_url ?? null,
          }));
      }),

    listPullFiles: (repo, number, limit) =>
      call(`listing the files of ${where(repo)}#${number}`, async () => {
        const perPage = Math.min(100, Math.max(1, limit));
        const { data, headers } = await octokit.rest.pulls.listFiles({
          ...repo,
          pull_number: number,
          per_page: perPage,
        });
        // GitHub links the next page when there is one.
        const complete = !/rel="next"/.test(headers.link ?? "");
        return { files: z.array(PullFileItem).parse(data), complete };
      }),
  };
}
