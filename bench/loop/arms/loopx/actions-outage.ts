/**
 * An `actions-outage` cell: GitHub Actions is down for a while, as in its incidents of an hour
 * or two. Every tick run dispatched meanwhile fails before it reaches LoopX (no job ever ran,
 * so none is billed); GitHub still announces each run's failed completion. It starts with the
 * goal's first run after its plan's, so it strikes work under way, not a goal waiting on people.
 */
import type { ArmRun, CellSpec } from "../arm-types.ts";

export const OUTAGE_MINUTES = 90;
const MINUTE = 60_000;

export interface ActionsOutage {
  /**
   * Whether the run dispatched now fails: `played` is how many of the goal's runs were played
   * before it (the plan's is the first).
   */
  strikes(now: number, played: number): boolean;
  /** Writes what struck, and whether the goal was still not done after it, into `run`. */
  report(run: ArmRun, done: boolean): void;
}

export function actionsOutage(cell: CellSpec, hoursOf: (at: number) => string): ActionsOutage {
  let from: number | null = null;
  let failed = 0;
  return {
    strikes(now, played) {
      if (cell.fault !== "actions-outage") return false;
      if (from === null && played >= 1) from = now;
      const down = from !== null && now < from + OUTAGE_MINUTES * MINUTE;
      if (down) failed += 1;
      return down;
    },
    report(run, done) {
      if (from === null) return;
      run.faults.push(
        `GitHub Actions down ${OUTAGE_MINUTES} min from ${hoursOf(from)}: ${failed} tick runs failed before reaching LoopX`,
      );
      if (!done) run.unrecovered.push("the goal was not done when the run ended");
    },
  };
}
