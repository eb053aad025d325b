import { isLeaseLive } from "./lease.ts";
import type { GoalState } from "./schemas/state.ts";
import type { HeldBy, Todo } from "./schemas/todo.ts";

/**
 * Who holds a todo now, as everyone should see it: LoopX's own tick under its lease, or
 * someone else (a person's `/loopx claim`, an assignee of its sub-issue). Null: nobody.
 */
export type TodoClaim =
  | {
      kind: "lease";
      /** The agent the tick runs as. */
      holder: string;
      tickId: string;
      /** The tick's number on its goal (null if the tick is not in the loaded window). */
      tickNumber: number | null;
      runId: number | null;
      since: Date | null;
      until: Date;
    }
  | {
      kind: "external";
      holder: string;
      via: HeldBy["via"];
      /** The sub-issue whose assignment holds it. */
      issue: number | null;
      since: Date;
      until: Date | null;
    };

/** Someone else's hold counts strictly before its `until`; without one, until let go. */
export function isHeldByOther(heldBy: HeldBy | null, now: Date): heldBy is HeldBy {
  return heldBy !== null && (heldBy.until === null || heldBy.until.getTime() > now.getTime());
}

/** The claim on one todo, a live lease first (LoopX never leases a todo another holds). */
export function claimOfTodo(
  state: Pick<GoalState, "ticks">,
  todo: Todo,
  now: Date,
): TodoClaim | null {
  if (isLeaseLive(todo.claim, now)) {
    const lease = todo.claim;
    const tick = state.ticks.find((t) => t.id === lease.tickId);
    return {
      kind: "lease",
      holder: lease.agent,
      tickId: lease.tickId,
      tickNumber: tick?.number ?? null,
      runId: tick?.run?.id ?? null,
      since: tick?.startedAt ?? null,
      until: lease.leaseExpiresAt,
    };
  }
  const held = todo.heldBy;
  if (!isHeldByOther(held, now)) return null;
  return {
    kind: "external",
    holder: held.holder,
    via: held.via,
    issue: held.issue,
    since: held.since,
    until: held.until,
  };
}

/** The claim on the todo with that key (null: no such todo, or nobody holds it). */
export function claimOf(
  state: Pick<GoalState, "todos" | "ticks">,
  todoKey: string,
  now: Date,
): TodoClaim | null {
  const todo = state.todos.find((t) => t.key === todoKey);
  return todo ? claimOfTodo(state, todo, now) : null;
}

/** "@alice (claimed)", "@Copilot (assigned on #12)": who holds it, for people to read. */
export function describeHolder(claim: Extract<TodoClaim, { kind: "external" }>): string {
  const how =
    claim.via === "assignment" && claim.issue !== null
      ? `assigned on #${claim.issue}`
      : claim.via === "assignment"
        ? "assigned"
        : "claimed";
  return `@${claim.holder} (${how})`;
}

/** "held by @alice (claimed)", with its end when it has one: the reason a todo waits. */
export function heldByText(todo: Todo): string {
  const held = todo.heldBy;
  if (!held) return "held";
  const who = describeHolder({ kind: "external", ...held });
  return held.until === null
    ? `held by ${who}`
    : `held by ${who} until ${held.until.toISOString()}`;
}

/** A hold with an end lets the todo run again then: the loop should look at that time. */
export function heldUntil(todos: Todo[]): Date | null {
  let soonest: Date | null = null;
  for (const t of todos) soonest = earliest(soonest, t.heldBy?.until ?? null);
  return soonest;
}

export function earliest(a: Date | null, b: Date | null): Date | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.getTime() <= b.getTime() ? a : b;
}
