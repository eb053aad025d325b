/**
 * A Store that counts what a request asks of it: every port call by name, the goal reads
 * among them, and whether each `apply` was handed the state the request had read. `hold()`
 * keeps the outbox worker idle (its `dueOutbox` finds nothing) so what is counted between
 * `hold()` and `release()` is the request's own, not the writes it queued.
 */
import type { Store } from "@loopx/store";
import { dbOf, keepHandle } from "@loopx/store/testing";

/** Port reads that return a goal's aggregate. */
const GOAL_READS = new Set(["loadGoal", "findGoalByIssue", "findCommentedGoal"]);

export interface StoreCounts {
  calls: string[];
  goalReads: number;
  appliesWithLoaded: number;
  appliesWithout: number;
}

export interface CountingStore {
  store: Store;
  counts: StoreCounts;
  reset(): void;
  hold(): void;
  release(): void;
}

export function countingStore(inner: Store): CountingStore {
  const counts: StoreCounts = { calls: [], goalReads: 0, appliesWithLoaded: 0, appliesWithout: 0 };
  let held = false;
  const store = new Proxy(inner, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== "function" || typeof prop !== "string") return value;
      return (...args: unknown[]) => {
        if (prop === "dueOutbox" && held) return Promise.resolve([]);
        counts.calls.push(prop);
        if (GOAL_READS.has(prop)) counts.goalReads++;
        if (prop === "apply") {
          const opts: unknown = args[2];
          const loaded = opts && typeof opts === "object" && Reflect.get(opts, "loaded");
          if (loaded) counts.appliesWithLoaded++;
          else counts.appliesWithout++;
        }
        return Reflect.apply(value, target, args);
      };
    },
  });
  // Harness helpers reach the rows through the raw handle (truncation, seeding).
  keepHandle(store, dbOf(inner));
  return {
    store,
    counts,
    reset() {
      counts.calls.length = 0;
      counts.goalReads = 0;
      counts.appliesWithLoaded = 0;
      counts.appliesWithout = 0;
    },
    hold() {
      held = true;
    },
    release() {
      held = false;
    },
  };
}
