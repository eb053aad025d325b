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
 * A comment for the next slice. Everyone's note is kept; only a writer's note becomes an
 * instruction and ends a stall — anyone else's reaches the brief as fenced data.
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
