import { z } from "zod";
import { Evidence, Handoff } from "./evidence.ts";
import { Gate } from "./gate.ts";
import { Goal } from "./goal.ts";
import { PrMonitor } from "./pr-monitor.ts";
import { Instant, Login, Sha, TodoKey, Uuid } from "./primitives.ts";
import { Tick } from "./tick.ts";
import { Todo } from "./todo.ts";

/**
 * A comment left for the next slice (the async inbox). Only trusted notes become
 * instructions; the rest reach a brief as fenced, labelled data.
 */
export const Note = z.object({
  id: Uuid,
  from: Login,
  trusted: z.boolean(),
  text: z.string().max(4000),
  at: Instant,
  /** The tick whose brief carried it; a note is delivered once. */
  deliveredTo: Uuid.nullable().default(null),
});
export type Note = z.infer<typeof Note>;

export const PullRequestState = z.enum(["open", "closed", "merged"]);

export const PullRequest = z.object({
  number: z.number().int().positive(),
  todo: TodoKey.nullable(),
  headRef: z.string().min(1),
  headSha: Sha,
  state: PullRequestState,
  /** What the PR monitor last read; rows stored before it existed parse with the defaults. */
  monitor: PrMonitor.default(() => PrMonitor.parse({})),
});
export type PullRequest = z.infer<typeof PullRequest>;

/**
 * Everything decide() and the transitions need about one goal. The store loads it whole;
 * evidence, ticks, handoffs and slot spends may be trimmed to a recent window.
 */
export const GoalState = z.object({
  goal: Goal,
  todos: z.array(Todo),
  gates: z.array(Gate),
  evidence: z.array(Evidence),
  ticks: z.array(Tick),
  handoffs: z.array(Handoff),
  notes: z.array(Note),
  pullRequests: z.array(PullRequest),
});
export type GoalState = z.infer<typeof GoalState>;
