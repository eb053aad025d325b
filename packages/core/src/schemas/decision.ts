import { z } from "zod";
import { GateKey, Instant, TodoKey } from "./primitives.ts";

export const Route = z.enum([
  "run",
  "wait",
  "ask_human",
  "replan",
  "over_budget",
  "stopped",
  "done",
]);
export type Route = z.infer<typeof Route>;

/**
 * decide()'s answer: what happens next for a goal, and why, in words for both channels.
 * It is deterministic (no model call) and reads the one clock it is given.
 */
export const Decision = z.object({
  route: Route,
  /** The todo to run (route run) — or the planning slice's anchor todo for replan, if any. */
  todo: TodoKey.nullable(),
  /** Gates that block work (route ask_human), or that a person still owes (otherwise). */
  gates: z.array(GateKey),
  /** One sentence a person can read: why this route. */
  reason: z.string().min(1),
  /** What the person should do, if anything ("" when nothing is asked of them). */
  userInstruction: z.string(),
  /** What the agent should do in this slice ("" when it should not run). */
  agentInstruction: z.string(),
  /** When the loop should look again (null: only an external event wakes it). */
  nextWakeAt: Instant.nullable(),
});
export type Decision = z.infer<typeof Decision>;
