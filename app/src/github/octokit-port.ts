import { GitHubError, type GitHubPort, type IssueRef, readKey, withKey } from "@loopx/github";
import type { ProbotOctokit } from "probot";
import { z } from "zod";
import { ConfigUnreadable, configUnreadable } from "./config-unreadable.ts";
import { createCheckVerbs } from "./octokit-checks.ts";
import { createCiVerbs } from "./octokit-ci.ts";
import { createDispatchVerb } from "./octokit-dispatch.ts";
import { createPullVerbs } from "./octokit-pulls.ts";
import { createReviewThreadVerbs } from "./octokit-review-threads.ts";

type Octokit = InstanceType<typeof ProbotOctokit>;

const PERMISSIONS = ["admin", "maintain", "write", "triage", "read", "none"] as const;

const IssueResponse = z.object({
  id: z.number(),
  number: z.number(),
  title: z.string(),
  body: z.string().nullable().optional(),
  state: z.enum(["open", "closed"]),
  user: z.object({ login: z.string() }).nullable(),
  labels: z.array(z.union([z.string(), z.object({ name: z.string().optional() })])),
});

const SubIssueResponse = z.object({
  id: z.number(),
  number: z.number(),
  body: z.string().nullable().optional(),
});

const CommentResponse = z.object({
  id: z.number(),
  body: z.string().optional().nullable(),
  user: z.object({ login: z.string() }).nullable(),
});

const RequestedReviewers = z.object({
  requested_reviewers: z
    .array(z.object({ login: z.string() }))
    .nullable()
    .optional(),
});

/** Octokit's RequestError, read without trusting its shape. */
const RequestErrorShape = z.object({
  status: z.number(),
  message: z.string().optional(),
  response: z.object({ headers: z.record(z.string(), z.unknown()) }).optional(),
});

function retryAfterOf(headers: Record<string, unknown> | undefined, nowMs: number): number | null {
  const after = Number(headers?.["retry-after"]);
  if (Number.isFinite(after) && after >= 0) return after;
  const remaining = headers?.["x-ratelimit-remaining"];
  const reset = Number(headers?.["x-ratelimit-reset"]);
  if (remaining === "0" && Number.isFinite(reset)) return Math.max(0, reset - nowMs / 1000);
  return null;
}

/** Turns whatever Octokit threw into a GitHubError the outbox can classify. */
export function toGitHubError(what: string, error: unknown): GitHubError {
  if (error instanceof GitHubError) return error;
  const parsed = RequestErrorShape.safeParse(error);
  if (!parsed.success) {
    const message = error instanceof Error ? error.message : String(error);
    return new GitHubError(`${what}: ${message}`, 0, null, { cause: error });
  }
  const { status, message, response } = parsed.data;
  return new GitHubError(
    `${what}: GitHub answered ${status}${message ? ` (${message})` : ""}`,
    status,
    retryAfterOf(response?.headers, Date.now()),
    { cause: error },
  );
}

async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    // A config file that is not YAML is the repository's problem, not GitHub's: reported.
    if (error instanceof ConfigUnreadable) throw error;
    throw toGitHubError(what, error);
  }
}

/** The port over one installation's Octokit. `bot` is the app's own login (`slug[bot]`). */
export function createOctokitPort(octokit: Octokit, bot: string): GitHubPort {
  const ownComments = async (issue: IssueRef) => {
    const found: { id: number; body: string }[] = [];
    const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, {
      owner: issue.owner,
      repo: issue.repo,
      issue_number: issue.number,
      per_page: 100,
    });
    for await (const page of pages) {
      for (const raw of page.data) {
        const c = CommentResponse.parse(raw);
        if (c.user?.login === bot) found.push({ id: c.id, body: c.body ?? "" });
      }
    }
    return found;
  };
  const updateIssue = (issue: IssueRef, what: string, patch: { body?: string; title?: string }) =>
    call(`writing the ${what} of ${issue.owner}/${issue.repo}#${issue.number}`, async () => {
      await octokit.rest.issues.update({
        owner: issue.owner,
        repo: issue.repo,
        issue_number: issue.number,
        ...patch,
      });
    });

  return {
    botLogin: async () => bot,

    permission: (repo, login) =>
      call(`reading ${login}'s permission on ${repo.owner}/${repo.repo}`, async () => {
        try {
          const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
            ...repo,
            username: login,
          });
          const role = z.enum(PERMISSIONS).safeParse(data.role_name);
          if (role.success) return role.data;
          return z.enum(PERMISSIONS).catch("none").parse(data.permission);
        } catch (error) {
          // Not a collaborator (or no such user): no permission, not a failure.
          if (RequestErrorShape.safeParse(error).data?.status === 404) return "none" as const;
          throw error;
        }
      }),

    getIssue: (issue) =>
      call(`reading ${issue.owner}/${issue.repo}#${issue.number}`, async () => {
        const { data } = await octokit.rest.issues.get({
          owner: issue.owner,
          repo: issue.repo,
          issue_number: issue.number,
        });
        const i = IssueResponse.parse(data);
        return {
          id: i.id,
          number: i.number,
          title: i.title,
          body: i.body ?? "",
          state: i.state,
          author: i.user?.login ?? "ghost",
          labels: i.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))),
        };
      }),

    setIssueBody: (issue, body) => updateIssue(issue, "body", { body }),
    setIssueTitle: (issue, title) => updateIssue(issue, "title", { title }),

    ensureComment: (issue, key, body, opts) =>
      call(`commenting on ${issue.owner}/${issue.repo}#${issue.number}`, async () => {
        if (opts?.unwritten !== true) {
          const existing = (await ownComments(issue)).find((c) => readKey(c.body) === key);
          if (existing) return { id: existing.id, created: false };
        }
        const { data } = await octokit.rest.issues.createComment({
          owner: issue.owner,
          repo: issue.repo,
          issue_number: issue.number,
          body: withKey(body, key),
        });
        return { id: data.id, created: true };
      }),

    upsertComment: (issue, key, body, knownId) =>
      call(
        `updating the status comment on ${issue.owner}/${issue.repo}#${issue.number}`,
        async () => {
          const keyed = withKey(body, key);
          // A stored id is one GitHub gave this app for its own comment: edited without a read.
          if (knownId !== null) {
            const edited = await octokit.rest.issues
              .updateComment({
                owner: issue.owner,
                repo: issue.repo,
                comment_id: knownId,
                body: keyed,
              })
              .then(
                () => true,
                (error: unknown) => {
                  // Deleted (or its issue gone): found again by key, or written anew.
                  if (RequestErrorShape.safeParse(error).data?.status === 404) return false;
                  throw error;
                },
              );
            if (edited) return { id: knownId, created: false };
          }
          const id = (await ownComments(issue)).find((c) => readKey(c.body) === key)?.id ?? null;
          if (id !== null) {
            await octokit.rest.issues.updateComment({
              owner: issue.owner,
              repo: issue.repo,
              comment_id: id,
              body: keyed,
            });
            return { id, created: false };
          }
          const { data } = await octokit.rest.issues.createComment({
            owner: issue.owner,
            repo: issue.repo,
            issue_number: issue.number,
            body: keyed,
          });
          return { id: data.id, created: true };
        },
      ),

    react: (repo, commentId, content) =>
      call(`reacting to comment ${commentId}`, async () => {
        await octokit.rest.reactions.createForIssueComment({
          ...repo,
          comment_id: commentId,
          content,
        });
      }),

    createSubIssue: (parent, title, body) =>
      call(`creating a sub-issue of ${parent.owner}/${parent.repo}#${parent.number}`, async () => {
        const { data } = await octokit.rest.issues.create({
          owner: parent.owner,
          repo: parent.repo,
          title,
          body,
        });
        await octokit.rest.issues.addSubIssue({
          owner: parent.owner,
          repo: parent.repo,
          issue_number: parent.number,
          sub_issue_id: data.id,
        });
        return { id: data.id, number: data.number };
      }),

    listSubIssues: (parent) =>
      call(
        `listing the sub-issues of ${parent.owner}/${parent.repo}#${parent.number}`,
        async () => {
          const found: { id: number; number: number; body: string }[] = [];
          const pages = octokit.paginate.iterator(octokit.rest.issues.listSubIssues, {
            owner: parent.owner,
            repo: parent.repo,
            issue_number: parent.number,
            per_page: 100,
          });
          for await (const page of pages) {
            for (const raw of page.data) {
              const i = SubIssueResponse.parse(raw);
              found.push({ id: i.id, number: i.number, body: i.body ?? "" });
            }
          }
          return found;
        },
      ),

    closeIssue: (issue, reason) =>
      call(`closing ${issue.owner}/${issue.repo}#${issue.number}`, async () => {
        await octokit.rest.issues.update({
          owner: issue.owner,
          repo: issue.repo,
          issue_number: issue.number,
          state: "closed",
          state_reason: reason,
        });
      }),

    defaultBranch: (repo) =>
      call(`reading ${repo.owner}/${repo.repo}`, async () => {
        const { data } = await octokit.rest.repos.get({ owner: repo.owner, repo: repo.repo });
        return z.object({ default_branch: z.string() }).parse(data).default_branch;
      }),

    ...createDispatchVerb(octokit, call),
    ...createPullVerbs(octokit, call),
    ...createCiVerbs(octokit, call),
    ...createCheckVerbs(octokit, call),
    ...createReviewThreadVerbs(octokit, call),

    requestReviewers: (repo, number, logins) =>
      call(`requesting reviews on ${repo.owner}/${repo.repo}#${number}`, async () => {
        const requested: string[] = [];
        const refused: string[] = [];
        // One at a time: GitHub refuses the whole request (422) if any one login is invalid.
        for (const login of logins) {
          try {
            const { data } = await octokit.rest.pulls.requestReviewers({
              owner: repo.owner,
              repo: repo.repo,
              pull_number: number,
              reviewers: [login],
            });
            // GitHub answers with the pull request: a login it accepted and did not list was
            // not reached, and counts as refused without reading the PR back.
            const listed = RequestedReviewers.safeParse(data).data?.requested_reviewers ?? [];
            const reached = listed.some((u) => u.login.toLowerCase() === login.toLowerCase());
            (reached ? requested : refused).push(login);
          } catch (error) {
            if (RequestErrorShape.safeParse(error).data?.status !== 422) throw error;
            refused.push(login);
          }
        }
        return { requested, refused };
      }),

    listRunJobs: (repo, runId) =>
      call(`reading the jobs of run ${runId} in ${repo.owner}/${repo.repo}`, async () => {
        const jobs = await octokit.paginate(octokit.rest.actions.listJobsForWorkflowRun, {
          ...repo,
          run_id: runId,
          filter: "latest",
          per_page: 100,
        });
        return z
          .array(
            z.object({
              name: z.string(),
              conclusion: z.string().nullable(),
              started_at: z.string().nullable(),
              completed_at: z.string().nullable(),
            }),
          )
          .parse(jobs)
          .map((j) => ({
            name: j.name,
            conclusion: j.conclusion,
            startedAt: j.started_at ? new Date(j.started_at) : null,
            completedAt: j.completed_at ? new Date(j.completed_at) : null,
          }));
      }),

    readConfig: (repo) =>
      call(`reading .github/loopx.yml in ${repo.owner}/${repo.repo}`, async () => {
        try {
          const { files } = await octokit.config.get({ ...repo, path: ".github/loopx.yml" });
          return files[0]?.config ?? null;
        } catch (error) {
          throw configUnreadable(error) ?? error;
        }
      }),
  };
}
