import { newProposals } from "../proposed-todos.ts";
import type { HarnessResult } from "../schemas/tick.ts";
import type { Todo } from "../schemas/todo.ts";
import { completeTodo } from "./complete-todo.ts";
import type { Draft } from "./kit.ts";
import { appendEvidence, appendTodo } from "./kit.ts";

/**
 * A planning slice's work is the todo list, not a change to files: its plan is accepted when
 * the result carries at least one valid proposed todo, new or already open (proposing the
 * same todo again is the same plan). An empty plan, or a slice that failed, is a stall. The
 * agent's word "completed" never completes a plan by itself.
 */
export function isPlanAccepted(result: HarnessResult): boolean {
  return result.outcome !== "failed" && result.proposedTodos.length > 0;
}

/** Adds the proposals that are new (keyed by normalized title among open todos). */
export function addProposals(d: Draft, result: HarnessResult): Todo[] {
  return newProposals(d.state.todos, result.proposedTodos).map((p) =>
    appendTodo(d, { ...p, origin: "agent" }),
  );
}

/** Completes the planning todo on the kernel's own record of what the plan added. */
export function completePlan(
  d: Draft,
  plan: Todo,
  tickId: string,
  result: HarnessResult,
  added: Todo[],
): void {
  const keys = added.length > 0 ? ` (${added.map((t) => t.key).join(", ")})` : "";
  const evidence = appendEvidence(d, {
    kind: "note",
    summary: `plan: ${result.proposedTodos.length} todo(s) proposed, ${added.length} new${keys}`,
    todo: plan.key,
    tickId,
  });
  completeTodo(d, plan, {
    evidenceIds: [evidence],
    continuation: { kind: "goal_active" },
    by: "plan",
    tickId,
  });
}
