import { editGoalBody } from "../handlers/edit-goal-body.ts";
import { issueClosed, issueReopened, issueUnlabeled } from "../handlers/issue-state.ts";
import { startGoal } from "../handlers/start-goal.ts";
import { subIssueRemoved } from "../handlers/sub-issue-events.ts";
import { IssuesEvent, SubIssuesEvent } from "../webhooks/payloads.ts";
import { type Handler, on } from "./on.ts";

/** The goal issue and its sub-issues: labels, edits (checkbox intake), close and reopen. */
export const ISSUE_HANDLERS: Record<string, Handler> = {
  "issues.labeled": on(IssuesEvent, startGoal),
  "issues.unlabeled": on(IssuesEvent, issueUnlabeled),
  "issues.edited": on(IssuesEvent, editGoalBody),
  "issues.closed": on(IssuesEvent, issueClosed),
  "issues.reopened": on(IssuesEvent, issueReopened),
  "sub_issues.sub_issue_removed": on(SubIssuesEvent, subIssueRemoved),
};
