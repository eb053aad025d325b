import type { Delivery } from "@loopx/store";
import type { AppDeps } from "../deps.ts";
import { ignored, type Outcome } from "../handlers/outcome.ts";
import { COMMAND_HANDLERS } from "./handlers-commands.ts";
import { ISSUE_HANDLERS } from "./handlers-issues.ts";
import { LIFECYCLE_HANDLERS } from "./handlers-lifecycle.ts";
import { PULL_HANDLERS } from "./handlers-pulls.ts";
import { TICK_HANDLERS } from "./handlers-ticks.ts";
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
