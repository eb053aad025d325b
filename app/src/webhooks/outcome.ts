/**
 * What processing a delivery came to. `applied`: a transition committed and marked the
 * delivery processed in its own transaction. `recorded`: nothing changed, but replies were
 * queued and the delivery marked in their transaction. `ignored`: nothing to do; the worker
 * marks it.
 */
export type Outcome =
  | { kind: "applied" }
  | { kind: "recorded"; why: string }
  | { kind: "ignored"; why: string };

export const applied: Outcome = { kind: "applied" };
export const ignored = (why: string): Outcome => ({ kind: "ignored", why });
export const recorded = (why: string): Outcome => ({ kind: "recorded", why });
