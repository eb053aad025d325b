import { z } from "zod";
import { Instant, Sha, TodoKey, Uuid } from "./primitives.ts";

export const EvidenceKind = z.enum([
  "test",
  "commit",
  "pr",
  "check",
  "log",
  "note",
  "metric",
  "host_failure",
]);
export type EvidenceKind = z.infer<typeof EvidenceKind>;

/** Evidence as a reporter states it; the kernel adds where, when and by which tick. */
export const EvidenceInput = z.object({
  kind: EvidenceKind,
  summary: z.string().trim().min(1).max(500),
  url: z.url().nullable().default(null),
  sha: Sha.nullable().default(null),
});
export type EvidenceInput = z.infer<typeof EvidenceInput>;

/** What a tick or a monitor observed. Pinned to a SHA or a time, because old facts go stale. */
export const Evidence = EvidenceInput.extend({
  id: Uuid,
  todo: TodoKey.nullable().default(null),
  tickId: Uuid.nullable().default(null),
  observedAt: Instant,
  stale: z.boolean().default(false),
});
export type Evidence = z.infer<typeof Evidence>;

export const HANDOFF_MAX_CHARS = 3000;

const handoffFields = {
  done: z.string().max(HANDOFF_MAX_CHARS),
  next: z.string().max(HANDOFF_MAX_CHARS),
  questions: z.array(z.string().max(500)).max(10).default([]),
};

/** Measured as one budget across fields: a handoff is bounded refs, not a transcript. */
export function handoffLength(h: { done: string; next: string; questions: string[] }): number {
  return h.done.length + h.next.length + h.questions.reduce((n, q) => n + q.length, 0);
}

const withinHandoffBudget = (h: { done: string; next: string; questions: string[] }) =>
  handoffLength(h) <= HANDOFF_MAX_CHARS;
const handoffBudgetMessage = {
  message: `a handoff is at most ${HANDOFF_MAX_CHARS} characters across done, next and questions; summarise and link evidence instead`,
  path: ["done"],
};

/** What one slice says it did and what should come next, as the harness reports it. */
export const HandoffInput = z
  .object(handoffFields)
  .refine(withinHandoffBudget, handoffBudgetMessage);
export type HandoffInput = z.infer<typeof HandoffInput>;

export const Handoff = z
  .object({ ...handoffFields, tickId: Uuid, createdAt: Instant })
  .refine(withinHandoffBudget, handoffBudgetMessage);
export type Handoff = z.infer<typeof Handoff>;
