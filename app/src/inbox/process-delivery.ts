import type { Delivery } from "@loopx/store";
import { COMMAND_HANDLERS } from "../comments/comment-routes.ts";
import type { AppDeps } from "../deps.ts";
import { ISSUE_HANDLERS } from "../issues/issue-routes.ts";
import { LIFECYCLE_HANDLERS } from "../lifecycle/lifecycle-routes.ts";
import { PULL_HANDLERS } from "../pulls/pull-routes.ts";
import { ignored, type Outcome } from "../webhooks/outcome.ts";
import { TICK_HANDLERS } from "../workflow-runs/workflow-run-routes.ts";
import { routeTable } from "./route-table.ts";

/** `event.action` (or just `event`) → handler. Everything else is recorded and ignored. */
export const HANDLERS = routeTable({
  issues: ISSUE_HANDLERS,
  commands: COMMAND_HANDLERS,
  lifecycle: LIFECYCLE_HANDLERS,
  ticks: TICK_HANDLERS,
  pulls: PULL_HANDLERS,
});

export async function processDelivery(deps: AppDeps, delivery: Delivery): Promise<Outcome> {
  const handler =
    HANDLERS[`${delivery.event}.${delivery.action ?? ""}`] ?? HANDLERS[delivery.event];
  if (!handler) return ignored(`no handler for ${delivery.event}.${delivery.action ?? ""}`);
  return handler(deps, delivery);
}
