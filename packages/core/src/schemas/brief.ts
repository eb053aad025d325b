import { z } from "zod";
import { EvidenceKind } from "./evidence.ts";
import { GateKey, Instant, Login, Scope, TodoKey, Uuid } from "./primitives.ts";
import { TodoKind, TodoStatus } from "./todo.ts";

/** Text that entered from outside the writers' circle: shown to the agent only as data. */
export const DataBlock = z.object({
  /** What it is and where it came from, e.g. "note from @someone", "CI log: test (ubuntu)". */
  label: z.string().min(1).max(200),
  text: z.string(),
});
export type DataBlock = z.infer<typeof DataBlock>;

/** What one slice receives. Rendered to at most BRIEF_MAX_BYTES of text. */
export const HarnessBrief = z.object({
  goalId: Uuid,
  repo: z.string().min(1),
  issue: z.number().int().positive(),
  tick: z.object({ id: Uuid, number: z.number().int().positive() }).nullable(),
  /** The only branch this slice works on: `loopx/<issue>-<todo>`. */
  branch: z.string().regex(/^loopx\/[0-9]+-T[0-9]+$/),
  objective: z.object({
    title: z.string(),
    /** The body when its author had write access; otherwise it is among `data`. */
    body: z.string().nullable(),
  }),
  todo: z.object({
    key: TodoKey,
    title: z.string(),
    detail: z.string(),
    kind: TodoKind,
    requiredScopes: z.array(Scope),
    attempts: z.number().int().nonnegative(),
  }),
  instruction: z.string(),
  /** When this slice must have reported: its tick's lease ends then (null: no tick yet). */
  deadline: Instant.nullable(),
  /** The goal's USD budget and what is left of it (null: no USD limit). */
  money: z.object({ left: z.number().nonnegative(), budget: z.number().nonnegative() }).nullable(),
  /**
   * This slice's own bounds: the most it may spend on the model (the proxy refuses past it)
   * and when the action stops it to push its work in progress (null: no checkpoint set).
   */
  slice: z.object({ usd: z.number().nonnegative(), checkpointAt: Instant.nullable() }).optional(),
  validationCommand: z.string().nullable(),
  /** Writers' notes: the only human text that counts as instruction. */
  notes: z.array(z.object({ from: Login, text: z.string() })),
  decisions: z.array(
    z.object({
      gate: GateKey,
      status: z.enum(["approved", "rejected"]),
      scopes: z.array(Scope),
      by: Login.nullable(),
      note: z.string().nullable(),
    }),
  ),
  lastHandoff: z
    .object({
      tickId: Uuid,
      done: z.string(),
      next: z.string(),
      questions: z.array(z.string()),
    })
    .nullable(),
  evidence: z.array(
    z.object({
      kind: EvidenceKind,
      summary: z.string(),
      url: z.string().nullable(),
      sha: z.string().nullable(),
      observedAt: Instant,
    }),
  ),
  data: z.array(DataBlock),
  /**
   * The goal's other open todos, so an agent (whichever harness) knows what remains and what
   * is done; `title` is null when the todo's text is not a writer's (it is data, not shown).
   */
  openTodos: z
    .array(z.object({ key: TodoKey, status: TodoStatus, title: z.string().nullable() }))
    .default([]),
});
export type HarnessBrief = z.infer<typeof HarnessBrief>;
