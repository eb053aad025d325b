import { considerDigest } from "@loopx/core";
import { digestEveryMs } from "@loopx/github";
import type { AppDeps } from "../deps.ts";
import { transitionContext } from "../intake/goal-context.ts";
import { DEFAULT_CONFIG, type RepoFactsCache } from "../repo-facts.ts";

/**
 * Looks at the digest of every active goal that is due for one: the interval comes from the
 * repository's `notify.digest` (the default where the config is invalid: such a goal is
 * paused where the config is read anyway). Returns how many looks committed; a digest's
 * comment is an outbox row the caller kicks.
 */
export async function sendDueDigests(
  deps: AppDeps,
  facts: RepoFactsCache,
  limit = 20,
): Promise<number> {
  let committed = 0;
  for (const goal of await deps.store.goalsDueForDigest(limit)) {
    try {
      const known = await facts.get(goal);
      const everyMs = digestEveryMs(known.config ?? DEFAULT_CONFIG);
      const result = await deps.store.apply(goal.goalId, (s, now) =>
        considerDigest(
          s,
          { everyMs },
          transitionContext(deps, { kind: "system", reason: "digest" }, now),
        ),
      );
      if (result.ok) committed += 1;
    } catch (error) {
      // One repository GitHub cannot read now must not hold up the others' digests.
      const message = error instanceof Error ? error.message : String(error);
      deps.log.warn(
        `digest of ${goal.owner}/${goal.name}#${goal.issueNumber}: ${message}; tried again next pass`,
      );
    }
  }
  return committed;
}
