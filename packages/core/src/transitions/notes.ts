import type { AddEvidenceInput, QueueNoteInput } from "../schemas/inputs.ts";
import {
  AddEvidenceInput as AddEvidenceSchema,
  QueueNoteInput as QueueNoteSchema,
} from "../schemas/inputs.ts";
import type { GoalState } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import {
  appendEvidence,
  begin,
  emit,
  isRefused,
  isTrustedActor,
  parseInput,
  refuse,
  resetBackoff,
} from "./kit.ts";

/**
 * Outsiders' notes (from people without write access) that may wait for the next slice: at
 * most this many from one person, and this many in all. A brief holds 8 KB, so more could
 * not reach the agent; and unbounded, anyone able to comment on the issue would make every
 * transition of the goal load, copy and store more until a slice runs, which a goal waiting
 * on a person's decision may not do for days.
 */
export const WAITING_OUTSIDER_NOTES = { perPerson: 3, total: 10 } as const;

/**
 * A comment for the next slice. A writer's note is always kept, becomes an instruction and
 * ends a stall; anyone else's reaches the brief as fenced data, and is kept only while
 * WAITING_OUTSIDER_NOTES allows.
 */
export function queueNote(
  state: GoalState,
  input: QueueNoteInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(QueueNoteSchema, input);
  if (isRefused(parsed)) return parsed;
  const actor = ctx.actor;
  if (actor.kind !== "human") {
    return refuse("invalid_input", "Notes come from people; agents report through tick results.");
  }
  if (!actor.trusted) {
    const waiting = state.notes.filter((n) => n.deliveredTo === null && !n.trusted);
    const theirs = waiting.filter((n) => n.from === actor.login).length;
    const { perPerson, total } = WAITING_OUTSIDER_NOTES;
    if (theirs >= perPerson || waiting.length >= total) {
      return refuse(
        "invalid_state",
        `${theirs >= perPerson ? `@${actor.login} already has ${theirs}` : `${waiting.length}`} comments from people without write access waiting for the next slice (at most ${perPerson} each, ${total} in all), so this one is not passed on. Comment again after the next slice has read them, or ask a maintainer to pass it on.`,
      );
    }
  }
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const id = ctx.newId();
  d.state.notes.push({
    id,
    from: actor.login,
    trusted: actor.trusted,
    text: parsed.text,
    at: ctx.now,
    deliveredTo: null,
  });
  emit(d, "note.queued", { id, from: actor.login, trusted: actor.trusted });
  if (actor.trusted) resetBackoff(d, `note from @${actor.login}`);
  d.status = false;
  return commit(d);
}

/** Evidence observed outside a tick (a check run, a monitor); trusted sources end a stall. */
export function addEvidence(
  state: GoalState,
  input: AddEvidenceInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(AddEvidenceSchema, input);
  if (isRefused(parsed)) return parsed;
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  if (parsed.todo !== null && !d.state.todos.some((t) => t.key === parsed.todo)) {
    return refuse("not_found", `todo: there is no todo ${parsed.todo} on this goal.`);
  }
  appendEvidence(d, parsed);
  if (isTrustedActor(ctx.actor)) resetBackoff(d, `new ${parsed.kind} evidence`);
  return commit(d);
}
