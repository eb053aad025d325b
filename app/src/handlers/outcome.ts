/**
 * What processing a delivery came to. `applied`: a transition committed and marked the
 * delivery processed in its own transaction. `ignored`: nothing to do; the worker marks it.
 */
export type Outcome = { kind: "applied" } | { kind: "ignored"; why: string };

export const applied: Outcome = { kind: "applied" };
export const ignored = (why: string): Outcome => ({ kind: "ignored", why });
