import { z } from "zod";

import { envelope, Issue } from "../webhooks/envelope.ts";

/** A new comment on an issue or a pull request: a `/loopx` command or a note. */
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
    /** Where the comment is on GitHub: a receipt links to the act. */
    html_url: z.string().optional(),
  }),
});
export type IssueCommentEvent = z.infer<typeof IssueCommentEvent>;
