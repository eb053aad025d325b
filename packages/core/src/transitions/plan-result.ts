import { newProposals, openTodoNamed } from "../proposed-todos.ts";
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
 * `changed`: the plan added or revised a todo. A replan that only names the open todos again
 * changes nothing, so it does not end a stall: an agent stuck on a todo that replans the
 * same work would otherwise make every stall a new one, and never reach a person.
 */
export function applyPlan(
  d: Draft,
  plan: Todo,
  tickId: string,
  result: HarnessResult,
): { accepted: boolean; changed: boolean } {
  if (result.outcome === "failed") {
    addProposals(d, result);
    return { accepted: false, changed: false };
  }
  const revised = result.revisions ? revisePlan(d, plan, tickId, result.revisions) : 0;
  const proposed = addProposals(d, result);
  if (result.proposedTodos.length === 0 && revised === 0) {
    return { accepted: false, changed: false };
  }
  completePlan(d, plan, tickId, result, proposed, revised);
  return { accepted: true, changed: proposed.added.length > 0 || revised > 0 };
}

/**
 * Adds the proposals that are new (keyed by normalized title among open todos, proposed ones
 * included); under `plan: approve` they wait as proposed for a writer.
 */
export function addProposals(d: Draft, result: HarnessResult): Proposed {
  const added: Todo[] = [];
  const unlinked: string[] = [];
  for (const p of newProposals(d.state.todos, result.proposedTodos)) {
    // Resolved before the todo exists: it can only build on what came before it.
    const before = p.after === undefined ? null : openTodoNamed(d.state.todos, p.after);
    const todo = appendTodo(d, {
      title: p.title,
      detail: p.detail,
      requiredScopes: p.requiredScopes,
      paths: p.paths,
      origin: "agent",
    });
    if (before) todo.resumeWhen = { kind: "todo_done", todo: before.key };
    else if (p.after !== undefined) unlinked.push(todo.key);
    added.push(todo);
  }
  holdForApproval(d, added);
  offerSubIssues(d, added);
  return { added, unlinked };
}

/** The todos a result added, and those whose `after` named no open todo (they wait on none). */
export interface Proposed {
  added: Todo[];
  unlinked: string[];
}

/** Completes the planning todo on the kernel's own record of what the plan changed. */
function completePlan(
  d: Draft,
  plan: Todo,
  tickId: string,
  result: HarnessResult,
  { added, unlinked }: Proposed,
  revised: number,
): void {
  const keys = added.length > 0 ? ` (${added.map((t) => t.key).join(", ")})` : "";
  const revisions = revised > 0 ? `; ${revised} revision(s) applied` : "";
  const orphans =
    unlinked.length > 0
      ? `; "after" named no open todo for ${unlinked.join(", ")}, which wait on none`
      : "";
  const evidence = appendEvidence(d, {
    kind: "note",
    summary: `plan: ${result.proposedTodos.length} todo(s) proposed, ${added.length} new${keys}${revisions}${orphans}`,
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
