import { z } from "zod";
import { Scope, ShortText, TodoKey } from "../schemas/primitives.ts";
import type { GoalState } from "../schemas/state.ts";
import type { Todo } from "../schemas/todo.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { blockingGatesFor, buildScopeIndex, isScopeGranted } from "../scope.ts";
import { awaitPersonPush, releaseAwaiting } from "./await-pull-request.ts";
import { commit } from "./commit.ts";
import type { Draft } from "./kit.ts";
import { addEffect, appendEvidence, begin, isRefused, parseInput, refuse } from "./kit.ts";
import { openGateIn } from "./open-gate.ts";
import { stall } from "./stall.ts";

export const PushRefusedInput = z.object({
  todo: TodoKey,
  headSha: z.string().regex(/^[0-9a-f]{7,64}$/),
  summary: ShortText.min(1),
  /** The change as a patch, when a person can push what the App may not (workflow files). */
  patch: z.string().max(61_000).optional(),
  paths: z.array(z.string().max(300)).max(50).default([]),
  /** The scopes a person must approve before these paths may be pushed (the path rules'). */
  scopes: z.array(Scope).max(10).default([]),
});
export type PushRefusedInput = z.input<typeof PushRefusedInput>;
type PushRefusedInputParsed = z.infer<typeof PushRefusedInput>;

/**
 * The report job did not push a finished slice (its commits touched a protected path): the
 * refusal is evidence pinned to the head that never landed. When only a person can push it
 * (it changes workflow files), the patch is handed to them in a comment and the todo waits
 * for their push (person-push.ts) whatever gate the paths need: pushing it is their act.
 * Otherwise the todo — which was waiting for a PR that will now never open — is runnable
 * again with no material change, so the goal stalls, and the paths' rules ask a person: one
 * gate on the scopes nothing approved yet, which the todo then needs, so it waits instead of
 * pushing the same refused change again.
 */
export function recordPushRefused(
  state: GoalState,
  input: PushRefusedInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(PushRefusedInput, input);
  if (isRefused(parsed)) return parsed;
  if (ctx.actor.kind !== "agent" && ctx.actor.kind !== "app") {
    return refuse("not_authorized", "Only the tick's report job records a refused push.");
  }
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const todo = d.state.todos.find((t) => t.key === parsed.todo);
  if (!todo) return refuse("not_found", `todo: there is no todo ${parsed.todo} on this goal.`);
  appendEvidence(d, { kind: "log", summary: parsed.summary, sha: parsed.headSha, todo: todo.key });
  if (parsed.patch !== undefined) {
    addEffect(d, {
      kind: "patch_comment",
      key: `patch:${todo.key}:${parsed.headSha}`,
      todo: todo.key,
      headSha: parsed.headSha,
      paths: parsed.paths,
      patch: parsed.patch,
    });
    // Running it again would only make the same refused change: it waits for the person.
    if (todo.status !== "done" && todo.status !== "dropped") {
      awaitPersonPush(d, todo, parsed.headSha);
    }
    return commit(d);
  }
  const asked = askForPaths(d, todo, parsed);
  releaseAwaiting(d, todo, "its push was refused");
  // A new question holds this todo alone, as a gate the agent asks for does: the others go
  // on at once. Without one, pushing what is refused again would spin, so it stalls.
  if (!asked) stall(d, `the push of ${todo.key} at ${parsed.headSha.slice(0, 7)} was refused`);
  return commit(d);
}

/**
 * Opens the gate a refused path rule stands for, unless a gate already holds its scopes;
 * true when it opened one that now holds the todo.
 */
function askForPaths(d: Draft, todo: Todo, refusal: PushRefusedInputParsed): boolean {
  const index = buildScopeIndex(d.state.gates, d.state.goal.grantedScopes);
  const unresolved = refusal.scopes.filter(
    (s) => !isScopeGranted(index, s) && blockingGatesFor(index, [s]).length === 0,
  );
  const needs = new Set([...todo.requiredScopes, ...refusal.scopes]);
  const holds = needs.size <= 10;
  if (holds) todo.requiredScopes = [...needs];
  if (unresolved.length === 0) return false;
  // Paths are the agent's names: no backtick of theirs closes the code span they are shown in.
  const paths = refusal.paths
    .slice(0, 5)
    .map((p) => `\`${p.replaceAll("`", "'")}\``)
    .join(", ");
  const question = `${todo.key} changes ${paths || "guarded paths"}, which .github/loopx.yml guards with ${unresolved.join(", ")}. Approve to let its next push carry them.`;
  openGateIn(d, {
    question: question.slice(0, 2000),
    scopes: unresolved,
    todo: todo.key,
  });
  return holds;
}
