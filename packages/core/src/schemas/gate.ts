import { z } from "zod";
import { GateKey, Instant, Login, Scope, Sha, ShortText, TodoKey } from "./primitives.ts";

export const GateStatus = z.enum(["open", "approved", "rejected", "expired"]);
export type GateStatus = z.infer<typeof GateStatus>;

/**
 * An owner gate: scoped authority a person grants. It blocks only the todos whose required
 * scopes it covers; everything else keeps running.
 */
export const Gate = z.object({
  key: GateKey,
  question: z.string().trim().min(1).max(2000),
  scopes: z.array(Scope).min(1, "a gate covers at least one scope"),
  status: GateStatus,
  /** Logins asked to decide; empty means the goal's owners. */
  requestedFrom: z.array(Login).default([]),
  /** The todo that asked for it, if any. */
  todo: TodoKey.nullable().default(null),
  /**
   * A PR-bound gate approves exactly this head; a push reopens it. `seenAt` is when GitHub
   * reported the head (its `synchronize` delivery, on GitHub's clock): a comment written
   * before then was about another head and approves nothing. Null when the gate opened on
   * a head LoopX read for itself (it existed before the gate did).
   */
  pr: z
    .object({
      number: z.number().int().positive(),
      headSha: Sha,
      seenAt: Instant.nullable().default(null),
    })
    .nullable()
    .default(null),
  openedAt: Instant,
  resolvedBy: Login.nullable().default(null),
  resolvedAt: Instant.nullable().default(null),
  /** What the resolver said ("approve G2 ship it" → "ship it"), kept for the receipt. */
  note: ShortText.nullable().default(null),
});
export type Gate = z.infer<typeof Gate>;
