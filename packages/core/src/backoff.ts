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
): Backoff {
  const level = Math.min(backoff.level + 1, ladder.length);
  const minutes = ladder[level - 1] ?? 0;
  const candidate = new Date(now.getTime() + minutes * 60_000);
  const until =
    backoff.until !== null && backoff.until.getTime() > candidate.getTime()
      ? backoff.until
      : candidate;
  return { level, stalledTicks: backoff.stalledTicks + 1, until };
}

export function isInitialBackoff(backoff: Backoff): boolean {
  return backoff.level === 0 && backoff.stalledTicks === 0 && backoff.until === null;
}
