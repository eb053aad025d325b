import type { Routes } from "../webhooks/on.ts";
import { on } from "../webhooks/on.ts";
import { IssueCommentEvent } from "./comment-payload.ts";
import { onIssueComment } from "./on-issue-comment.ts";

/**
 * Comments: `/loopx …` commands and notes. Reviews that resolve gates and pushes that reopen
 * them are the PR family's (pulls/pull-routes.ts), which runs them before the PR monitor.
 */
export const COMMAND_HANDLERS: Routes = {
  // Only `created`: a command added by editing a comment never acts.
  "issue_comment.created": on(IssueCommentEvent, onIssueComment),
};
