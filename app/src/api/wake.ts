import type { WakeResponse } from "@loopx/core";
import { dispatchDue } from "../scheduler/dispatch-due.ts";
import { notFound } from "./api-failure.ts";
import { authorizeCall, type TickApiContext } from "./authorize-call.ts";
import type { ActionsClaims } from "./verify-oidc.ts";

/**
 * POST /api/v1/wake — the cron backstop. Dispatches this repository's due goals (active,
 * `next_wake_at` passed, no live lease), each once per wake instant whichever replica or
 * caller gets there first; a quiet repository costs no GitHub request.
 */
export async function wake(ctx: TickApiContext, claims: ActionsClaims): Promise<WakeResponse> {
  const goals = await ctx.deps.store.goalsOfRepo(claims.repository_id);
  const first = goals[0];
  if (!first) {
    throw notFound(
      `${claims.repository} has no LoopX goal: label an issue to start one, or remove the wake workflow.`,
    );
  }
  await authorizeCall(
    ctx,
    claims,
    {
      installationId: first.installationId,
      repoId: claims.repository_id,
      ownerId: first.repoOwnerId,
      owner: first.owner,
      name: first.name,
    },
    "wake",
  );
  const dispatched = await dispatchDue(ctx.deps, ctx.facts, { repoId: claims.repository_id });
  // Queued in the outbox: written right away.
  if (dispatched.length > 0) ctx.committed();
  return { dispatched: dispatched.map((g) => g.issueNumber) };
}
