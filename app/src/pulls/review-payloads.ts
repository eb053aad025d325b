import { z } from "zod";
import { Account, Repository } from "../webhooks/envelope.ts";

/**
 * Pull request payloads that gates read: a review (an approval of one head) and a push to a
 * PR (`synchronize`, which moves the head and so reopens an approval). Loose like payloads.ts.
 */
const Installation = z.object({ id: z.number() });

const PullRequest = z.object({
  number: z.number(),
  state: z.string(),
  head: z.object({ sha: z.string(), ref: z.string() }),
  user: z.object({ login: z.string() }).nullable().optional(),
  /** On `synchronize`: when GitHub took the new head (its clock, whole seconds). */
  updated_at: z.coerce.date().optional(),
});

export const PullRequestReviewEvent = z.object({
  action: z.string(),
  installation: Installation,
  repository: Repository,
  sender: Account,
  pull_request: PullRequest,
  review: z.object({
    id: z.number(),
    // GitHub sends `approved`, `changes_requested`, `commented` (lower case in webhooks).
    state: z.string(),
    commit_id: z.string().nullable().optional(),
    user: z.object({ login: z.string(), type: z.string() }).nullable(),
    /** Where the review is on GitHub: the approval's receipt links to it. */
    html_url: z.string().optional(),
  }),
});
export type PullRequestReviewEvent = z.infer<typeof PullRequestReviewEvent>;

export const PullRequestEvent = z.object({
  action: z.string(),
  installation: Installation,
  repository: Repository,
  sender: Account,
  pull_request: PullRequest,
  /** `synchronize` only: the head before the push. */
  before: z.string().optional(),
  after: z.string().optional(),
});
export type PullRequestEvent = z.infer<typeof PullRequestEvent>;
