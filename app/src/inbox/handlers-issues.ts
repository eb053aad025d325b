import { startGoal } from "../handlers/start-goal.ts";
import { IssuesEvent } from "../webhooks/payloads.ts";
import { type Handler, on } from "./on.ts";

/** The goal issue and its sub-issues: labels, edits (checkbox intake), close and reopen. */
export const ISSUE_HANDLERS: Record<string, Handler> = {
  "issues.labeled": on(IssuesEvent, startGoal),
};
