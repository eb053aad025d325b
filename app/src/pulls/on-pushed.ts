import { requestPullRequest } from "@loopx/core";
import type { PushedEvent } from "../api/pushed.ts";
import type { AppDeps } from "../deps.ts";
import { transitionContext } from "../intake/goal-context.ts";

/**
 * The tick API's `onPushed` hook: a tick's todo branch reached GitHub, so its PR is opened
 * or updated — queued as an outbox effect, written after commit like every GitHub write.
 * Only the tick's own branch (`loopx/<issue>-<todo>`, same repository) ever gets here: the
 * tick API checked it against the claim. Returns whether a write was queued.
 */
export async function openPullOnPush(deps: AppDeps, event: PushedEvent): Promise<boolean> {
  const applied = await deps.store.apply(
    event.state.goal.id,
    (s, now) =>
      requestPullRequest(
        s,
        {
          todo: event.tick.todo,
          branch: event.branch,
          headSha: event.headSha,
          gateScopes: event.openPrScopes,
        },
        transitionContext(deps, { kind: "app" }, now),
      ),
    { source: { tickId: event.tick.id } },
  );
  if (!applied.ok) deps.log.info(`no pull request for ${event.branch}: ${applied.refusal.message}`);
  return applied.ok;
}
