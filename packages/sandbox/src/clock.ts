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

export function createClock(start: Date | number = Date.now()): Clock {
  let current = typeof start === "number" ? start : start.getTime();
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void | Promise<void> }>();
  return {
    now: () => current,
    iso: () => isoSeconds(current),
    async advance(ms) {
      if (ms < 0) throw new RangeError("the clock only moves forward");
      const target = current + ms;
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= target)
          .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!due) break;
        timers.delete(due[0]);
        current = Math.max(current, due[1].at);
        await due[1].fn();
      }
      current = target;
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
