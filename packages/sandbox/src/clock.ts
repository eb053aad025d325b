/** A simulated clock: token expiry, timestamps and scheduled work all read it, so tests can jump ahead. */
export interface Clock {
  /** Milliseconds since the epoch, simulated. */
  now(): number;
  /** The current simulated time as an ISO 8601 string without milliseconds, like GitHub's. */
  iso(): string;
  /** Moves the clock forward and runs every timer that falls due, in order. */
  advance(ms: number): Promise<void>;
  /** Runs `fn` once the simulated time reaches `at` (ms since epoch). */
  at(at: number, fn: () => void | Promise<void>): () => void;
}

export function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

/**
 * Tests get a clock that stands still unless they move it; `realTime` makes it also follow
 * the machine's clock (the demo, where a person acts seconds after the agent pushed, and
 * GitHub's timestamps say so).
 */
export function createClock(
  start: Date | number = Date.now(),
  opts: { realTime?: boolean } = {},
): Clock {
  let base = typeof start === "number" ? start : start.getTime();
  const since = Date.now();
  const elapsed = () => (opts.realTime ? Date.now() - since : 0);
  const now = () => base + elapsed();
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void | Promise<void> }>();
  return {
    now,
    iso: () => isoSeconds(now()),
    async advance(ms) {
      if (ms < 0) throw new RangeError("the clock only moves forward");
      const target = now() + ms;
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= target)
          .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!due) break;
        timers.delete(due[0]);
        base = Math.max(now(), due[1].at) - elapsed();
        await due[1].fn();
      }
      base = target - elapsed();
    },
    at(at, fn) {
      const id = ++seq;
      timers.set(id, { at, fn });
      return () => {
        timers.delete(id);
      };
    },
  };
}
