import type { z } from "zod";
import { GoalStatus, RepoRef } from "../schemas/goal.ts";
import type { GoalState } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import { begin, emit, isRefused, parseInput, refuse } from "./kit.ts";

const RenameInput = RepoRef.omit({ id: true });

/**
 * The repository was renamed or transferred: the goal follows it. GitHub's numeric
 * repository id is stable, so it identifies the goal's repository; the owner (and, after a
 * transfer, the owner's id that OIDC tokens are checked against) and the name change.
 */
export function renameRepo(
  state: GoalState,
  input: z.input<typeof RenameInput>,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(RenameInput, input);
  if (isRefused(parsed)) return parsed;
  if (ctx.actor.kind !== "app" && ctx.actor.kind !== "system") {
    return refuse(
      "not_authorized",
      "Only GitHub's own repository events rename a goal's repository.",
    );
  }
  // A finished goal's record follows too: its links must keep working.
  const d = begin(state, ctx, { statuses: GoalStatus.options });
  if (isRefused(d)) return d;
  const before = d.state.goal.repo;
  if (
    before.owner === parsed.owner &&
    before.name === parsed.name &&
    before.ownerId === parsed.ownerId
  ) {
    return refuse("duplicate", `The goal already names ${parsed.owner}/${parsed.name}.`);
  }
  d.state.goal.repo = { ...before, ...parsed };
  emit(d, "goal.repo_renamed", {
    from: `${before.owner}/${before.name}`,
    to: `${parsed.owner}/${parsed.name}`,
    ownerIdChanged: before.ownerId !== parsed.ownerId,
  });
  // Links in the body and the status comment name the repository.
  d.checklist = true;
  return commit(d);
}
