export { createGoal } from "./create-goal.ts";
export { releaseClaim, syncAssignees, takeClaim } from "./external-claims.ts";
export { approveGate, openGate, rejectGate } from "./gates.ts";
export { pauseGoal, requestReplan, resumeGoal, setBudget, stopGoal } from "./goal-control.ts";
export { interruptionOf } from "./interrupt-tick.ts";
export {
  AwaitJobInput,
  awaitJob,
  finishJob,
  JobRunCompleted,
  jobNotDispatched,
  jobStarted,
  refuseJob,
} from "./job-wait.ts";
export { isTrustedActor } from "./kit.ts";
export type { ClaimOutcome } from "./leases.ts";
export { claimNext, claimTodo, expireLeases, releaseLease, renewLease } from "./leases.ts";
export { addEvidence, queueNote, WAITING_OUTSIDER_NOTES } from "./notes.ts";
export { notifyOwners, occasionWaits } from "./notify-owners.ts";
export { PushedCommitInput, recordPushedCommit } from "./pushed-commit.ts";
export { refreshProjections } from "./refresh-projections.ts";
export { renameRepo } from "./rename-repo.ts";
export {
  offerSubIssues,
  subIssueTitle,
  todoTitleFrom,
  wantsSubIssue,
} from "./sub-issue-effects.ts";
export { adoptSubIssue, retitleTodoFromSubIssue } from "./sub-issue-sync.ts";
export { linkSubIssue, settleTodoFromSubIssue, unlinkSubIssue } from "./sub-issues.ts";
export { applyTickResult, isMaterialDelta, isValidatedProgress } from "./tick-result.ts";
export { completeTodoByHuman, reopenTodo } from "./todo-completion.ts";
export { acceptTodo, addTodo, dropTodo, editTodo, reorderTodo } from "./todo-edits.ts";
export { spendWorkflowApproval, workflowApprovals } from "./workflow-approval.ts";
