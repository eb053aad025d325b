import type { Delivery } from "@loopx/store";
import { COMMAND_HANDLERS } from "../comments/comment-routes.ts";
import type { AppDeps } from "../deps.ts";
import { ISSUE_HANDLERS } from "../issues/issue-routes.ts";
import { LIFECYCLE_HANDLERS } from "../lifecycle/lifecycle-routes.ts";
import { PULL_HANDLERS, PULL_SETTLES } from "../pulls/pull-routes.ts";
import type { Handler } from "../webhooks/on.ts";
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

/** The handler that reads this kind of delivery; none means LoopX ignores it whatever it says. */
export function handlerOf(delivery: Pick<Delivery, "event" | "action">): Handler | undefined {
  return HANDLERS[`${delivery.event}.${delivery.action ?? ""}`] ?? HANDLERS[delivery.event];
}

export const unhandled = (delivery: Pick<Delivery, "event" | "action">): string =>
  `no handler for ${delivery.event}.${delivery.action ?? ""}`;

/** How the worker records a delivery that changed nothing, and why. */
export const ignoredOutcome = (why: string): string => `ignored: ${why}`.slice(0, 500);

/**
 * The outcome of a delivery that its kind and payload alone decide, as the worker would
 * record it: none of the handlers reads it, or its route settles it (a passing check run).
 * Null: the worker must process it. Stored processed on arrival, it is never read back.
 */
export function settledOnArrival(
  delivery: Pick<Delivery, "event" | "action" | "payload">,
): string | null {
  if (!handlerOf(delivery)) return ignoredOutcome(unhandled(delivery));
  const why = PULL_SETTLES[`${delivery.event}.${delivery.action ?? ""}`]?.(delivery.payload);
  return why ? ignoredOutcome(why) : null;
}

export async function processDelivery(deps: AppDeps, delivery: Delivery): Promise<Outcome> {
  const handler = handlerOf(delivery);
  if (!handler) return ignored(unhandled(delivery));
  return handler(deps, delivery);
}
