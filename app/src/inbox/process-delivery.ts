import type { Delivery } from "@loopx/store";
import type { AppDeps } from "../deps.ts";
import { ignored, type Outcome } from "../handlers/outcome.ts";
import { COMMAND_HANDLERS } from "./handlers-commands.ts";
import { ISSUE_HANDLERS } from "./handlers-issues.ts";
import { LIFECYCLE_HANDLERS } from "./handlers-lifecycle.ts";
import { PULL_HANDLERS } from "./handlers-pulls.ts";
import { TICK_HANDLERS } from "./handlers-ticks.ts";
import type { Handler } from "./on.ts";

/** `event.action` (or just `event`) → handler. Everything else is recorded and ignored. */
export const HANDLERS: Record<string, Handler> = {
  ...ISSUE_HANDLERS,
  ...COMMAND_HANDLERS,
  ...LIFECYCLE_HANDLERS,
  ...TICK_HANDLERS,
  // After COMMAND_HANDLERS: its PR gate handlers are wrapped here with the PR monitor.
  ...PULL_HANDLERS,
};

export async function processDelivery(deps: AppDeps, delivery: Delivery): Promise<Outcome> {
  const handler =
    HANDLERS[`${delivery.event}.${delivery.action ?? ""}`] ?? HANDLERS[delivery.event];
  if (!handler) return ignored(`no handler for ${delivery.event}.${delivery.action ?? ""}`);
  return handler(deps, delivery);
}
