import type { PlanRevisions } from "../schemas/tick.ts";
import type { Todo } from "../schemas/todo.ts";
import type { Draft } from "./kit.ts";
import { appendEvidence, dropIn, emit } from "./kit.ts";
import { holdForApproval } from "./plan-gate.ts";
import { syncSubIssueTitle } from "./sub-issue-effects.ts";

/**
 * Why a planning slice may not revise this todo, or null when it may: only an open task an
 * agent proposed and no writer accepted, that no tick is working on. People's todos (and
 * the ones they accepted), the PR monitor's and finished ones are theirs to change.
 */
export function revisionRefusal(todo: Todo | undefined, key: string): string | null {
  if (!todo) return `there is no ${key}`;
  if (todo.status === "done" || todo.status === "dropped") return `${key} is ${todo.status}`;
  if (todo.origin !== "agent") return `${key} is not an agent's proposal (${todo.origin})`;
  if (todo.kind !== "task") return `${key} is a ${todo.kind} todo`;
  if (todo.claim !== null) return `${key} is being worked on`;
  return null;
}

/**
 * Applies what a planning slice revised. Entries it may not make are left undone and
 * recorded as evidence on the plan todo, so the next slice and people see what was refused.
 * Returns how many revisions were applied.
 */
export function revisePlan(d: Draft, plan: Todo, tickId: string, rev: PlanRevisions): number {
  let applied = 0;
  const refused: string[] = [];
  const find = (key: string) => {
    const todo = d.state.todos.find((t) => t.key === key);
    if (!todo) d.unresolved = [...(d.unresolved ?? []), key];
    const why = revisionRefusal(todo, key);
    if (why !== null) refused.push(why);
    return why === null ? todo : undefined;
  };
  const now = d.ctx.now;
  for (const w of rev.reword) {
    const todo = find(w.todo);
    if (!todo) continue;
    todo.title = w.title;
    todo.detail = w.detail;
    todo.updatedAt = now;
    emit(d, "todo.edited", { todo: todo.key, fields: ["title", "detail"], by: plan.key });
    syncSubIssueTitle(d, todo);
    // New words a writer never read are a new proposal: under `plan: approve` it waits again.
    holdForApproval(d, [todo]);
    applied += 1;
  }
  const order = [...new Set(rev.order)].map(find).filter((t) => t !== undefined);
  const places = order.map((t) => t.position).sort((a, b) => a - b);
  for (const [i, todo] of order.entries()) {
    const position = places[i] ?? todo.position;
    if (todo.position === position) continue;
    todo.position = position;
    todo.updatedAt = now;
    emit(d, "todo.reordered", { todo: todo.key, position, by: plan.key });
    applied += 1;
  }
  for (const key of rev.drop) {
    const todo = find(key);
    if (!todo) continue;
    dropIn(d, todo, `revised by the plan in ${plan.key}`);
    applied += 1;
  }
  if (applied > 0) d.checklist = true;
  if (refused.length > 0) {
    appendEvidence(d, {
      kind: "note",
      summary: `plan revisions refused: ${refused.join("; ")}`.slice(0, 500),
      todo: plan.key,
      tickId,
    });
  }
  return applied;
}
