import type { CellMetrics } from "../../bench/loop/cell-metrics.ts";

/** A play's metrics with nothing counted, for stand-in plays to mark with what they need. */
export function noMetrics(marks: Partial<CellMetrics> = {}): CellMetrics {
  return {
    landed: 0,
    total: 0,
    slices: 0,
    wastedSlices: 0,
    billedMinutes: 0,
    tokens: 0,
    usd: 0,
    pullsOpened: 0,
    pullsUnmerged: 0,
    duplicateComments: 0,
    personActs: 0,
    personMinutes: 0,
    injectedLanded: null,
    faults: [],
    unrecovered: [],
    usdPastBudget: null,
    doneAfterMinutes: null,
    usdWaiting: 0,
    usdAfterDone: null,
    requests: 0,
    contentRequests: 0,
    ...marks,
  };
}
