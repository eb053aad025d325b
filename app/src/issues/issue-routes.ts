import type { Routes } from "../webhooks/on.ts";
import { on } from "../webhooks/on.ts";
import { editGoalBody } from "./edit-goal-body.ts";
import { IssuesEvent, SubIssuesEvent } from "./issue-payloads.ts";
import { issueClosed, issueReopened, issueUnlabeled } from "./issue-state.ts";
import { startGoal } from "./start-goal.ts";
import { AssigneesEvent, subIssueAssignees } from "./sub-issue-assignees.ts";
import { subIssueAdded, subIssueRemoved } from "./sub-issue-events.ts";

/** The goal issue and its sub-issues: labels, edits (checkbox intake), close and reopen. */
export const ISSUE_HANDLERS: Routes = {
  "issues.labeled": on(IssuesEvent, startGoal),
  "issues.unlabeled": on(IssuesEvent, issueUnlabeled),
  "issues.edited": on(IssuesEvent, editGoalBody),
  "issues.closed": on(IssuesEvent, issueClosed),
  "issues.reopened": on(IssuesEvent, issueReopened),
  "issues.assigned": on(AssigneesEvent, subIssueAssignees),
  "issues.unassigned": on(AssigneesEvent, subIssueAssignees),
  "sub_issues.sub_issue_added": on(SubIssuesEvent, subIssueAdded),
  "sub_issues.sub_issue_removed": on(SubIssuesEvent, subIssueRemoved),
};
