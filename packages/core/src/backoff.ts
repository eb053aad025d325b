import type { Backoff } from "./schemas/goal.ts";

/** Waits between ticks that made no material delta; the last rung repeats. */
export const BACKOFF_LADDER_MINUTES: readonly number[] = Object.freeze([3, 10, 30, 60]);

/** Stalled ticks after which the goal routes to replan. */
export const STALLED_TICKS_REPLAN = 2;

/** Stalled ticks after which the goal asks a person instead of replanning again. */
export const STALLED_TICKS_ASK_HUMAN = 6;

export const INITIAL_BACKOFF: Backoff = Object.freeze({ level: 0, stalledTicks: 0, until: null });

/**
 * One more tick without a material delta: climb a rung. The window only ever extends, so a
 * stall can never make the loop wake sooner than an earlier stall already promised.
 */
export function growBackoff(
  backoff: Backoff,
  now: Date,
  ladder: readonly number[] = BACKOFF_LADDER_MINUTES,
  o: { hostFailure?: boolean } = {},
): Backoff {
  const level = Math.min(backoff.level + 1, ladder.length);
  const minutes = ladder[level - 1] ?? 0;
  const candidate = new Date(now.getTime() + minutes * 60_000);
  const until =
    backoff.until !== null && backoff.until.getTime() > candidate.getTime()
      ? backoff.until
      : candidate;
  const hostFailures = (backoff.hostFailures ?? 0) + (o.hostFailure ? 1 : 0);
  return {
    level,
    stalledTicks: backoff.stalledTicks + 1,
    ...(hostFailures > 0 ? { hostFailures } : {}),
    until,
  };
}

/**
 * Why a person is asked after the stalled ticks in `backoff`, in a clause: runs that never
 * reached LoopX point at the workflow, its secrets or the runners, not at the plan.
 */
export function stallWords(backoff: Backoff): string {
  const n = backoff.stalledTicks;
  const host = backoff.hostFailures ?? 0;
  if (host === n) {
    return `${n} tick runs in a row failed before they reached LoopX (see their host_failure evidence): the tick workflow, its secrets or the runners need a look`;
  }
  const replanned =
    triedStalls(backoff) >= STALLED_TICKS_REPLAN ? "; replanning alone has not helped" : "";
  const of = host > 0 ? ` (${host} of them runs that failed before they reached LoopX)` : "";
  return `${n} ticks in a row made no material change${of}${replanned}`;
}

/** Stalled ticks in a row in which the agent ran: only these can say the plan is wrong. */
export function triedStalls(backoff: Backoff): number {
  return backoff.stalledTicks - (backoff.hostFailures ?? 0);
}

export function isInitialBackoff(backoff: Backoff): boolean {
  return backoff.level === 0 && backoff.stalledTicks === 0 && backoff.until === null;
}
