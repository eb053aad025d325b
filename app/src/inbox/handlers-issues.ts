import { editGoalBody } from "../handlers/edit-goal-body.ts";
import { issueClosed, issueReopened, issueUnlabeled } from "../handlers/issue-state.ts";
import { startGoal } from "../handlers/start-goal.ts";
import { subIssueRemoved } from "../handlers/sub-issue-events.ts";
import { IssuesEvent, SubIssuesEvent } from "../webhooks/payloads.ts";
import { on } from "./on.ts";
import type { Routes } from "./route-table.ts";

/** The goal issue and its sub-issues: labels, edits (checkbox intake), close and reopen. */
export const ISSUE_HANDLERS: Routes = {
  "issues.labeled": on(IssuesEvent, startGoal),
  "issues.unlabeled": on(IssuesEvent, issueUnlabeled),
  "issues.edited": on(IssuesEvent, editGoalBody),
  "issues.closed": on(IssuesEvent, issueClosed),
  "issues.reopened": on(IssuesEvent, issueReopened),
  "sub_issues.sub_issue_removed": on(SubIssuesEvent, subIssueRemoved),
};
