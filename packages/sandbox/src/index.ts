export type { CiCommand, CiConclusion, CiContext, CiVerdict } from "./ci.ts";
export { type Clock, createClock } from "./clock.ts";
export type { RouteFault } from "./faults.ts";
export { type ActionsClaims, defaultClaims, OidcIssuer } from "./oidc.ts";
export type { RequestLogEntry } from "./request-log.ts";
export type { Route } from "./router.ts";
export type { ActionSpec } from "./runner/job.ts";
export { giveToRunner, runnerUser } from "./runner/runner-user.ts";
export {
  createSandbox,
  DEFAULT_APP_PERMISSIONS,
  type Sandbox,
  type SandboxOptions,
} from "./sandbox.ts";
export type { WorkflowJob, WorkflowRun } from "./state/types.ts";
export { takeUnsupported } from "./strict.ts";
export type { Delivery, WebhookFault } from "./webhooks/deliveries.ts";
