/**
 * The schedule a plain workflow loop runs on, simulated on the sandbox's clock: one run per
 * cron firing, serialized by a concurrency group with `cancel-in-progress: false`. GitHub keeps
 * at most one run pending per group and a newer one replaces it ("Any existing pending job or
 * workflow in the same concurrency group … will be canceled and the new queued job or workflow
 * will take its place", quoted in bench/loop/arms/b1/SOURCES.md), so however many firings a
 * long run overlaps, one run starts when it ends.
 *
 * Between runs the clock jumps from event to event (the person's next act, the next firing),
 * and the person looks at GitHub after every act and every run, so reviews and merges happen
 * on the same clock as the runs without stepping minute by minute.
 */
import { cronMatches } from "../../../../packages/sandbox/src/runner/cron.ts";
import type { CellWorld } from "../../world/cell-world.ts";

const MINUTE = 60_000;

/** The first minute at or after `from` (up to `until`, inclusive) that `cron` matches. */
export function nextFiring(cron: string, from: number, until: number): number | null {
  for (let t = Math.ceil(from / MINUTE) * MINUTE; t <= until; t += MINUTE) {
    if (cronMatches(cron, new Date(t))) return t;
  }
  return null;
}

/** How many firings fall strictly between `start` and `end`. */
export function firingsBetween(cron: string, start: number, end: number): number {
  let n = 0;
  for (let t = Math.floor(start / MINUTE) * MINUTE + MINUTE; t < end; t += MINUTE) {
    if (cronMatches(cron, new Date(t))) n += 1;
  }
  return n;
}

export interface Driver {
  /** Moves the clock to `target`, performing the person's acts due on the way. */
  advanceTo(target: number): Promise<void>;
  /** Waits for CI and webhooks, then lets the person start what is due (reviews, merges). */
  settle(): Promise<void>;
}

export function driver(world: CellWorld): Driver {
  const { sandbox, person } = world;
  const settle = async () => {
    await sandbox.idle();
    await person.attend();
    await sandbox.idle();
  };
  return {
    settle,
    async advanceTo(target) {
      // Acts due now that did not run when asked (started elsewhere): not waited on again.
      const stalled = new Set<number>();
      while (sandbox.clock.now() < target) {
        const now = sandbox.clock.now();
        const pending = person.pending().filter((a) => !stalled.has(a.id));
        const step = Math.min(target, ...pending.map((a) => Math.max(now, a.dueAt)));
        const before = person.acts().length;
        await sandbox.clock.advance(step - now);
        if (person.acts().length > before) await settle();
        else if (step === now) for (const a of pending) if (a.dueAt <= now) stalled.add(a.id);
      }
    },
  };
}

export interface ScheduleOptions {
  world: CellWorld;
  cron: string;
  /** Simulated ms after which no firing starts a run. */
  until: number;
  /** One workflow run, started at the clock's time; it advances the clock to its job's end. */
  run: (n: number) => Promise<void>;
  /** Asked before each run: true ends the schedule (the arm stopped and nothing is left open). */
  finished: () => Promise<boolean>;
}

/** Runs the schedule to `until`, then lets the clock reach `until` so pending acts land. */
export async function runSchedule(opts: ScheduleOptions, d: Driver): Promise<void> {
  const { world, cron, until } = opts;
  let from = world.sandbox.clock.now();
  let n = 0;
  for (;;) {
    if (await opts.finished()) return;
    const at = nextFiring(cron, from, until);
    if (at === null) break;
    await d.advanceTo(at);
    let start = at;
    for (;;) {
      n += 1;
      await opts.run(n);
      const end = world.sandbox.clock.now();
      from = end;
      // The firings this run overlapped left one pending run, which starts as this one ends.
      if (firingsBetween(cron, start, end) === 0 || end > until) break;
      if (await opts.finished()) return;
      start = end;
    }
  }
  await d.advanceTo(until);
}
