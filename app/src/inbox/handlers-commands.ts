import { onIssueComment } from "../handlers/on-issue-comment.ts";
import { onPullRequestPush } from "../handlers/on-pull-request-push.ts";
import { onPullRequestReview } from "../handlers/on-pull-request-review.ts";
import { IssueCommentEvent } from "../webhooks/payloads.ts";
import { PullRequestEvent, PullRequestReviewEvent } from "../webhooks/review-payloads.ts";
import { type Handler, on } from "./on.ts";

/** Comments (`/loopx …` commands and notes) and pull request reviews that resolve gates. */
export const COMMAND_HANDLERS: Record<string, Handler> = {
  // Only `created`: a command added by editing a comment never acts.
  "issue_comment.created": on(IssueCommentEvent, onIssueComment),
  "pull_request_review.submitted": on(PullRequestReviewEvent, onPullRequestReview),
  // A push moves the head an approval covered: PR-bound gates open again.
  "pull_request.synchronize": on(PullRequestEvent, onPullRequestPush),
};
