export * from "./backoff.ts";
export * from "./brief-sources.ts";
export * from "./brief-todo.ts";
export * from "./build-brief.ts";
export * from "./check-runs.ts";
export * from "./checks-verdict.ts";
export * from "./ci-question.ts";
export * from "./claim-check.ts";
export * from "./claims.ts";
export * from "./cost-ledger.ts";
export * from "./decide.ts";
export * from "./evidence-summary.ts";
export * from "./failure-signature.ts";
export * from "./final-report.ts";
export * from "./gate-preview.ts";
export * from "./goal-digest.ts";
export * from "./lease.ts";
export * from "./outcomes.ts";
export * from "./path-rules.ts";
export * from "./plan-holds.ts";
export * from "./pr-outcome.ts";
export * from "./preview-words.ts";
export * from "./proposed-todos.ts";
export * from "./pushed-commit.ts";
export * from "./receipt-words.ts";
export * from "./redact-secrets.ts";
export * from "./repair-policy.ts";
export * from "./schemas/index.ts";
export * from "./scope.ts";
export * from "./slice-notes.ts";
export * from "./slot-quota.ts";
export * from "./state-words.ts";
export * from "./test-counts.ts";
export * from "./todo-dependencies.ts";
export * from "./todo-order.ts";
export * from "./todo-overlap.ts";
export {
  AWAITING_EVIDENCE,
  AWAITING_PERSON_PUSH,
  AWAITING_PULL_REQUEST,
  isAwaitingEvidence,
  isAwaitingPersonPush,
  isAwaitingPullRequest,
} from "./transitions/await-pull-request.ts";
export * from "./transitions/branch-in-base.ts";
export * from "./transitions/consider-digest.ts";
export * from "./transitions/harness.ts";
export * from "./transitions/host-failure.ts";
export * from "./transitions/index.ts";
export * from "./transitions/link-pull-request.ts";
export * from "./transitions/observe-pull-request.ts";
export * from "./transitions/person-push.ts";
export * from "./transitions/push-refused.ts";
export * from "./transitions/reopen-gate.ts";
export * from "./transitions/track-pull-request.ts";
export * from "./transitions/wake.ts";
