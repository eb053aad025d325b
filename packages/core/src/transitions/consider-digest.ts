import { z } from "zod";
import { goalDigest } from "../goal-digest.ts";
import type { GoalState } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import { begin, emit, isRefused, parseInput } from "./kit.ts";
import { notifyOwners } from "./notify-owners.ts";

/** With digests off, the config is looked at again this often (it may turn them on). */
export const DIGEST_OFF_RECHECK_MS = 24 * 3_600_000;

export const ConsiderDigestInput = z.object({
  /** `notify.digest` in .github/loopx.yml, in milliseconds; null when it says "never". */
  everyMs: z.number().int().min(3_600_000, "a digest at most hourly").nullable(),
});
export type ConsiderDigestInput = z.input<typeof ConsiderDigestInput>;

/**
 * The scheduler's look at an active goal's digest: once an interval has passed since the
 * last one (or since the goal started), one digest comment through the notification path,
 * unless the goal says exactly what the last digest said. Either way the next look is one
 * interval on; the goal's other state is untouched.
 */
export function considerDigest(
  state: GoalState,
  input: ConsiderDigestInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(ConsiderDigestInput, input);
  if (isRefused(parsed)) return parsed;
  const d = begin(state, ctx, { statuses: ["active"] });
  if (isRefused(d)) return d;
  // Nothing the status comment shows changes here.
  d.status = false;
  const digest = d.state.goal.digest;
  const now = ctx.now.getTime();
  if (parsed.everyMs === null) {
    digest.dueAt = new Date(now + DIGEST_OFF_RECHECK_MS);
    return commit(d, { bookkeeping: true });
  }
  const since = digest.sentAt ?? d.state.goal.createdAt;
  const due = since.getTime() + parsed.everyMs;
  if (now < due) {
    digest.dueAt = new Date(due);
    return commit(d, { bookkeeping: true });
  }
  digest.dueAt = new Date(now + parsed.everyMs);
  const { text, fingerprint } = goalDigest(d.state, since, ctx.now);
  if (fingerprint === digest.fingerprint) return commit(d, { bookkeeping: true });
  digest.count += 1;
  digest.sentAt = ctx.now;
  digest.fingerprint = fingerprint;
  notifyOwners(d, { kind: "digest", key: `digest:${digest.count}`, text }, { remind: false });
  emit(d, "goal.digest_sent", { digest: digest.count, since: since.toISOString() });
  return commit(d, { bookkeeping: true });
}
