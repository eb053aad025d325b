import type { Guarded, GuardedChange } from "./guard-changes.ts";

export interface PushRefusal {
  reason: string;
  paths: string[];
  /** It changes workflow files: only a person can push it, so it goes to them as a patch. */
  workflow: boolean;
  /** Held for another running todo's paths: it pushes once that todo's tick is done. */
  held: boolean;
}

/**
 * Why a slice's commit may not be pushed, the first reason in this order: `.github/` with no
 * gate, a path rule no gate approved, another running todo's paths, workflow files. Whatever
 * the reason, a change with workflow files is one the App can never push — not after a gate,
 * not after a wait — so it is marked for a person, except when held: a held change is pushed
 * (and judged again) once the other todo's tick is done.
 */
export function pushRefusal(g: Guarded): PushRefusal | null {
  const workflow = g.workflows.length > 0;
  if (g.github.length > 0) {
    return {
      reason: "its commits change .github/ and no gate approved write:.github",
      paths: names(g.github),
      workflow,
      held: false,
    };
  }
  if (g.rules.length > 0) {
    const scopes = [...new Set(g.rules.flatMap((r) => r.scopes))].join(", ");
    return {
      reason: `its commits change paths guarded by a gate on ${scopes}, which no gate approved`,
      paths: names(g.rules.map((r) => r.change)),
      workflow,
      held: false,
    };
  }
  if (g.held.length > 0) {
    const todos = [...new Set(g.held.map((h) => h.todo))];
    const declared = todos
      .map((todo) => `${todo} (${g.held.find((h) => h.todo === todo)?.globs.join(", ")})`)
      .join(", ");
    return {
      reason: `held: its commits change paths that ${declared} declared, and ${todos.length === 1 ? "that todo's tick is" : "their ticks are"} still running`,
      paths: names(g.held.map((h) => h.change)),
      workflow: false,
      held: true,
    };
  }
  if (workflow) {
    return {
      reason:
        "the change includes workflow files, which GitHub refuses from a token without the `workflows` permission (LoopX never asks for it)",
      paths: names(g.workflows),
      workflow,
      held: false,
    };
  }
  return null;
}

function names(changes: GuardedChange[]): string[] {
  return [...new Set(changes.map((c) => c.path))];
}
