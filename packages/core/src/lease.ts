import type { Claim } from "./schemas/todo.ts";

/** A lease is live strictly before its expiry; at or after it, the claim is dead. */
export function isLeaseLive(claim: Claim | null, now: Date): claim is Claim {
  return claim !== null && claim.leaseExpiresAt.getTime() > now.getTime();
}
