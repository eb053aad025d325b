import { openPlanGate, planGateHolds, planScope } from "../plan-holds.ts";
import type { Gate } from "../schemas/gate.ts";
import type { Todo } from "../schemas/todo.ts";
import type { Draft } from "./kit.ts";
import { dropIn, emit } from "./kit.ts";
import { expireWhere, openGateIn } from "./open-gate.ts";
import { offerSubIssues } from "./sub-issue-effects.ts";

function question(keys: readonly string[]): string {
  return `Accept the agent's plan? ${keys.join(", ")} wait as proposed: approving makes them ready to run, rejecting drops them and lets the agent plan again. Their text stays the agent's (data to the slices) unless you accept one with \`/loopx todo accept T#\`.`;
}

/**
 * Under `plan: approve`, todos an agent proposed, named as a successor or reworded wait as
 * proposed, never runnable, until a writer decides the plan (see syncPlanGate).
 */
export function holdForApproval(d: Draft, todos: readonly Todo[]): void {
  if (d.state.goal.plan !== "approve" || todos.length === 0) return;
  for (const todo of todos) {
    todo.status = "proposed";
    todo.updatedAt = d.ctx.now;
    emit(d, "todo.held", { todo: todo.key });
  }
  d.checklist = true;
  d.planHeld = true;
}

/**
 * Keeps one open plan gate per goal, listing exactly the proposed todos; commit() calls it.
 * A plan that changed replaces the open gate (it expires), so an approval never covers a todo
 * the gate did not list when the writer read it. A gate with nothing left to hold (a writer
 * accepted, dropped or finished each of its todos on their own) expires.
 */
export function syncPlanGate(d: Draft): void {
  const proposed = d.state.todos.filter((t) => t.status === "proposed").map((t) => t.key);
  const gate = openPlanGate(d.state);
  if (d.planHeld === true && proposed.length > 0) {
    expireWhere(d, (g) => g.key === gate?.key, "the plan changed; a new gate lists it");
    openGateIn(d, { question: question(proposed), scopes: proposed.map(planScope) });
    return;
  }
  if (gate && !planGateHolds(gate)?.some((k) => proposed.includes(k))) {
    expireWhere(d, (g) => g.key === gate.key, "no proposed todo is left to accept");
  }
}

/** A writer approved a plan gate: exactly the todos it holds, still proposed, become ready. */
export function releasePlan(d: Draft, gate: Gate): void {
  const released: Todo[] = [];
  for (const key of planGateHolds(gate) ?? []) {
    const todo = d.state.todos.find((t) => t.key === key);
    if (todo?.status !== "proposed") continue;
    todo.status = "ready";
    todo.updatedAt = d.ctx.now;
    emit(d, "todo.released", { todo: key, gate: gate.key });
    d.checklist = true;
    released.push(todo);
  }
  offerSubIssues(d, released);
}

/** A writer rejected a plan gate: the todos it holds are dropped; the agent may plan again. */
export function dropPlan(d: Draft, gate: Gate): void {
  for (const key of planGateHolds(gate) ?? []) {
    const todo = d.state.todos.find((t) => t.key === key);
    if (todo?.status === "proposed") dropIn(d, todo, `plan rejected in ${gate.key}`);
  }
}
