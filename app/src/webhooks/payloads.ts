import { z } from "zod";

/**
 * The parts of GitHub's webhook payloads LoopX reads, parsed once at the edge. Objects are
 * loose: GitHub adds fields all the time, and only what is named here is trusted to exist.
 */
export const Account = z.object({ login: z.string(), id: z.number(), type: z.string() });
export type Account = z.infer<typeof Account>;

export const Repository = z.object({
  id: z.number(),
  name: z.string(),
  full_name: z.string(),
  owner: z.object({ login: z.string(), id: z.number() }),
  default_branch: z.string().optional(),
  archived: z.boolean().optional(),
});
export type Repository = z.infer<typeof Repository>;

const Installation = z.object({ id: z.number() });

const Issue = z.object({
  id: z.number(),
  number: z.number(),
  title: z.string(),
  body: z.string().nullable().optional(),
  state: z.enum(["open", "closed"]),
  state_reason: z.string().nullable().optional(),
  user: z.object({ login: z.string(), type: z.string().optional() }).nullable(),
  labels: z.array(z.object({ name: z.string() })).optional(),
  pull_request: z.unknown().optional(),
});
export type Issue = z.infer<typeof Issue>;

const envelope = {
  installation: Installation,
  repository: Repository,
  sender: Account,
};

export const IssuesEvent = z.object({
  ...envelope,
  action: z.string(),
  issue: Issue,
  label: z.object({ name: z.string() }).optional(),
  changes: z
    .object({
      body: z.object({ from: z.string().nullable() }).optional(),
      title: z.object({ from: z.string() }).optional(),
    })
    .optional(),
});
export type IssuesEvent = z.infer<typeof IssuesEvent>;

export const IssueCommentEvent = z.object({
  ...envelope,
  action: z.string(),
  issue: Issue,
  comment: z.object({
    id: z.number(),
    body: z.string().nullable(),
    user: z.object({ login: z.string(), type: z.string() }).nullable(),
    /** GitHub's time of writing: what an approval by comment is judged on. */
    created_at: z.coerce.date().optional(),
  }),
});
export type IssueCommentEvent = z.infer<typeof IssueCommentEvent>;

export const SubIssuesEvent = z.object({
  ...envelope,
  action: z.string(),
  parent_issue: Issue,
  sub_issue: Issue,
});
export type SubIssuesEvent = z.infer<typeof SubIssuesEvent>;

export const InstallationEvent = z.object({
  action: z.string(),
  installation: z.object({
    id: z.number(),
    account: z.object({ login: z.string(), id: z.number() }).nullable().optional(),
  }),
  sender: Account,
  repositories: z.array(z.object({ id: z.number(), full_name: z.string() })).optional(),
  repositories_removed: z.array(z.object({ id: z.number(), full_name: z.string() })).optional(),
});
export type InstallationEvent = z.infer<typeof InstallationEvent>;

export const RepositoryEvent = z.object({
  ...envelope,
  action: z.string(),
});
export type RepositoryEvent = z.infer<typeof RepositoryEvent>;

/** What every delivery must carry for LoopX to route it; others are recorded and ignored. */
export const Routable = z.object({
  action: z.string().optional(),
  installation: Installation.optional(),
});
