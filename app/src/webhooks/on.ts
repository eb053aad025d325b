import type { Delivery } from "@loopx/store";
import type { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { ignored, type Outcome } from "./outcome.ts";

export type Handler = (deps: AppDeps, delivery: Delivery) => Promise<Outcome>;

/** One webhook family's routes: `event.action` (or just `event`) → handler. */
export type Routes = Readonly<Record<string, Handler>>;

/**
 * Routes whose payload alone can say a delivery changes nothing (`event.action` → why, or
 * null when the handler must look): such a delivery is stored processed on arrival.
 */
export type Settles = Readonly<Record<string, (payload: unknown) => string | null>>;

/** Parses the payload at the edge; a payload that is not what GitHub documents is dropped loudly. */
export function on<S extends z.ZodType>(
  schema: S,
  handle: (deps: AppDeps, delivery: Delivery, event: z.infer<S>) => Promise<Outcome>,
): Handler {
  return async (deps, delivery) => {
    const parsed = schema.safeParse(delivery.payload);
    if (!parsed.success) {
      deps.log.warn(
        `delivery ${delivery.deliveryId} (${delivery.event}.${delivery.action}) is malformed: ${parsed.error.message}`,
      );
      return ignored("malformed payload");
    }
    return handle(deps, delivery, parsed.data);
  };
}
