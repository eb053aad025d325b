import { onIssueComment } from "../handlers/on-issue-comment.ts";
import { IssueCommentEvent } from "../webhooks/payloads.ts";
import { on } from "./on.ts";
import type { Routes } from "./route-table.ts";

/**
 * Comments: `/loopx …` commands and notes. Reviews that resolve gates and pushes that reopen
 * them are the PR family's (handlers-pulls.ts), which runs them before the PR monitor.
 */
export const COMMAND_HANDLERS: Routes = {
  // Only `created`: a command added by editing a comment never acts.
  "issue_comment.created": on(IssueCommentEvent, onIssueComment),
};
