import { newProposals } from "../proposed-todos.ts";
import type { HarnessResult } from "../schemas/tick.ts";
import type { Todo } from "../schemas/todo.ts";
import { completeTodo } from "./complete-todo.ts";
import type { Draft } from "./kit.ts";
import { appendEvidence, appendTodo } from "./kit.ts";
import { holdForApproval } from "./plan-gate.ts";
import { revisePlan } from "./revise-plan.ts";
import { offerSubIssues } from "./sub-issue-effects.ts";

/**
 * A planning slice's work is the todo list, not a change to files: its plan is accepted when
 * the result carries at least one valid proposed todo, new or already open (proposing the
 * same todo again is the same plan), or revised an agent's open todo. An empty plan, or a
 * slice that failed, is a stall. The agent's word "completed" never completes a plan.
 */
export function applyPlan(d: Draft, plan: Todo, tickId: string, result: HarnessResult): boolean {
  if (result.outcome === "failed") {
    addProposals(d, result);
    return false;
  }
  const revised = result.revisions ? revisePlan(d, plan, tickId, result.revisions) : 0;
  const added = addProposals(d, result);
  if (result.proposedTodos.length === 0 && revised === 0) return false;
  completePlan(d, plan, tickId, result, added, revised);
  return true;
}

/**
 * Adds the proposals that are new (keyed by normalized title among open todos, proposed ones
 * included); under `plan: approve` they wait as proposed for a writer.
 */
export function addProposals(d: Draft, result: HarnessResult): Todo[] {
  const added = newProposals(d.state.todos, result.proposedTodos).map((p) =>
    appendTodo(d, { ...p, origin: "agent" }),
  );
  holdForApproval(d, added);
  offerSubIssues(d, added);
  return added;
}

/** Completes the planning todo on the kernel's own record of what the plan changed. */
function completePlan(
  d: Draft,
  plan: Todo,
  tickId: string,
  result: HarnessResult,
  added: Todo[],
  revised: number,
): void {
  const keys = added.length > 0 ? ` (${added.map((t) => t.key).join(", ")})` : "";
  const revisions = revised > 0 ? `; ${revised} revision(s) applied` : "";
  const evidence = appendEvidence(d, {
    kind: "note",
    summary: `plan: ${result.proposedTodos.length} todo(s) proposed, ${added.length} new${keys}${revisions}`,
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
