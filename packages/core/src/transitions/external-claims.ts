import { z } from "zod";
import { isHeldByOther } from "../claims.ts";
import { isLeaseLive } from "../lease.ts";
import { Instant, Login, TodoKey } from "../schemas/primitives.ts";
import type { GoalState } from "../schemas/state.ts";
import type { Todo } from "../schemas/todo.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import type { Draft, Refused } from "./kit.ts";
import {
  addEffect,
  begin,
  emit,
  findTodo,
  isRefused,
  isTrustedActor,
  parseInput,
  refuse,
  resetBackoff,
} from "./kit.ts";

const TakeClaimInput = z.object({ todo: TodoKey, until: Instant.nullable().default(null) });
const ReleaseClaimInput = z.object({ todo: TodoKey });
const AssigneesInput = z.object({
  issue: z.number().int().positive(),
  /** Everyone assigned now, in GitHub's order (empty: nobody). */
  assignees: z.array(Login).max(10),
});

function openTodo(d: Draft, key: string, what: string): Todo | Refused {
  const todo = findTodo(d, key);
  if (isRefused(todo)) return todo;
  if (todo.status === "done" || todo.status === "dropped") {
    return refuse("invalid_state", `${todo.key} is ${todo.status}; there is nothing to ${what}.`);
  }
  return todo;
}

/**
 * `/loopx claim T3`: a writer says they work on T3 themselves, so LoopX skips it until it is
 * released. A todo a tick works now is refused rather than taken after the tick: the tick
 * may already be opening a pull request, which is exactly the duplicate a claim is meant to
 * prevent, so the person is told who holds it and until when and decides again.
 */
export function takeClaim(
  state: GoalState,
  input: { todo: string; until?: Date | null },
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(TakeClaimInput, input);
  if (isRefused(parsed)) return parsed;
  const actor = ctx.actor;
  if (actor.kind !== "human" || !actor.trusted) {
    const who = actor.kind === "human" ? `@${actor.login}` : "Only a person";
    return refuse(
      "not_authorized",
      `${who} may not claim todos: claiming needs write access to the repository.`,
    );
  }
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const todo = openTodo(d, parsed.todo, "claim");
  if (isRefused(todo)) return todo;
  if (todo.kind === "plan") {
    return refuse(
      "invalid_state",
      `${todo.key} is LoopX's replanning slice; it cannot be claimed.`,
    );
  }
  if (parsed.until !== null && parsed.until.getTime() <= ctx.now.getTime()) {
    return refuse("invalid_input", "until: a claim must end in the future.");
  }
  if (isLeaseLive(todo.claim, ctx.now)) {
    const tick = d.state.ticks.find((t) => t.id === todo.claim?.tickId);
    const which = tick ? `tick #${tick.number}` : "a tick";
    return refuse(
      "lease_held",
      `${todo.key} is being worked by LoopX (${which}) under a lease until ${todo.claim.leaseExpiresAt.toISOString()}; claim it when that tick has ended, or \`/loopx pause\` first.`,
    );
  }
  const held = todo.heldBy;
  if (isHeldByOther(held, ctx.now)) {
    if (held.holder.toLowerCase() === actor.login.toLowerCase() && held.via === "command") {
      return refuse("duplicate", `${todo.key} is already claimed by @${held.holder}.`);
    }
    const how =
      held.via === "assignment"
        ? `assigned to @${held.holder} on #${held.issue}`
        : `claimed by @${held.holder}`;
    return refuse(
      "lease_held",
      `${todo.key} is ${how}; it must be released (\`/loopx release ${todo.key}\`${held.via === "assignment" ? ", or unassigned" : ""}) before anyone else claims it.`,
    );
  }
  todo.heldBy = {
    holder: actor.login,
    via: "command",
    issue: null,
    since: ctx.now,
    until: parsed.until,
    noticed: false,
  };
  todo.updatedAt = ctx.now;
  d.checklist = true;
  emit(d, "todo.claim_taken", {
    todo: todo.key,
    holder: actor.login,
    via: "command",
    until: parsed.until,
  });
  return commit(d);
}

/**
 * `/loopx release T3`: the claimer, or any writer, lets the todo go and LoopX may work on it.
 * A hold that comes from an assignment is GitHub's to end: unassigning releases it.
 */
export function releaseClaim(
  state: GoalState,
  input: { todo: string },
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(ReleaseClaimInput, input);
  if (isRefused(parsed)) return parsed;
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const todo = openTodo(d, parsed.todo, "release");
  if (isRefused(todo)) return todo;
  const held = todo.heldBy;
  const actor = ctx.actor;
  const claimer =
    actor.kind === "human" &&
    held !== null &&
    held.holder.toLowerCase() === actor.login.toLowerCase();
  if (!isTrustedActor(actor) && !claimer) {
    const who = actor.kind === "human" ? `@${actor.login}` : "This actor";
    return refuse(
      "not_authorized",
      `${who} may not release ${todo.key}: only its claimer or someone with write access can.`,
    );
  }
  if (!isHeldByOther(held, ctx.now)) {
    return refuse("not_found", `${todo.key} is not claimed; there is nothing to release.`);
  }
  if (held.via === "assignment") {
    return refuse(
      "invalid_state",
      `${todo.key} is held because #${held.issue} is assigned to @${held.holder}; unassign them on #${held.issue} to let LoopX work on it.`,
    );
  }
  letGo(d, todo, held.holder);
  return commit(d);
}

function letGo(d: Draft, todo: Todo, holder: string): void {
  todo.heldBy = null;
  todo.updatedAt = d.ctx.now;
  d.checklist = true;
  emit(d, "todo.claim_released", { todo: todo.key, holder });
  resetBackoff(d, `${todo.key} released`);
}

/**
 * A todo's sub-issue was assigned or unassigned (people, Copilot, any bot): whoever GitHub
 * shows as assigned holds the todo, until nobody is. An assignment replaces a command claim,
 * since it is what everyone sees on the issue; a tick already running keeps its lease.
 */
export function syncAssignees(
  state: GoalState,
  input: { issue: number; assignees: string[] },
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(AssigneesInput, input);
  if (isRefused(parsed)) return parsed;
  const d = begin(state, ctx, { statuses: ["active", "paused", "stopped"] });
  if (isRefused(d)) return d;
  const todo = d.state.todos.find((t) => t.subIssue?.number === parsed.issue);
  if (!todo) return refuse("not_found", `No todo of this goal has sub-issue #${parsed.issue}.`);
  if (todo.status === "done" || todo.status === "dropped") {
    return refuse("invalid_state", `${todo.key} is ${todo.status}; its assignees do not matter.`);
  }
  const held = todo.heldBy;
  const byAssignment = held !== null && held.via === "assignment";
  if (parsed.assignees.length === 0) {
    if (!byAssignment) return refuse("not_found", `${todo.key} is not held by an assignment.`);
    letGo(d, todo, held.holder);
    return commit(d);
  }
  const still = parsed.assignees.find(
    (a) => byAssignment && a.toLowerCase() === held.holder.toLowerCase(),
  );
  if (still !== undefined) {
    return refuse(
      "duplicate",
      `${todo.key} is already held by @${still} (assigned on #${parsed.issue}).`,
    );
  }
  const holder = parsed.assignees[0] as string;
  todo.heldBy = {
    holder,
    via: "assignment",
    issue: parsed.issue,
    since: ctx.now,
    until: null,
    noticed: false,
  };
  todo.updatedAt = ctx.now;
  d.checklist = true;
  emit(d, "todo.claim_taken", { todo: todo.key, holder, via: "assignment", issue: parsed.issue });
  return commit(d);
}

/**
 * Says once, per holder, that LoopX skipped a todo someone else holds and worked another one
 * instead: the reason there is no competing pull request, where people look for one.
 */
export function noticeSkippedHolds(d: Draft, skipped: Todo[], chosen: string): void {
  for (const todo of skipped) {
    const held = todo.heldBy;
    if (held === null || held.noticed) continue;
    held.noticed = true;
    const how =
      held.via === "assignment"
        ? `its sub-issue #${held.issue} is assigned to @${held.holder}; unassigning lets LoopX take it`
        : `@${held.holder} claimed it; \`/loopx release ${todo.key}\` lets LoopX take it`;
    addEffect(d, {
      kind: "receipt",
      key: `receipt:todo:${todo.key}:skipped:${held.since.toISOString()}`,
      text: `LoopX skips ${todo.key} and works on ${chosen} instead: ${how}.`,
    });
  }
}
