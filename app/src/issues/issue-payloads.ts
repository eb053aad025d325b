import { z } from "zod";

import { envelope, Issue } from "../webhooks/envelope.ts";

/** The goal issue and its sub-issues, as `issues` and `sub_issues` deliveries carry them. */
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

export const SubIssuesEvent = z.object({
  ...envelope,
  action: z.string(),
  parent_issue: Issue,
  sub_issue: Issue,
});
export type SubIssuesEvent = z.infer<typeof SubIssuesEvent>;
