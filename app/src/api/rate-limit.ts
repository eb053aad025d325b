import { ApiFailure } from "./api-failure.ts";

export interface RateLimiter {
  /** Takes one request from `key`'s bucket; throws a 429 ApiFailure when it is empty. */
  take(key: string): void;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per key (a repository), in this replica's memory: enough to stop one
 * runaway workflow from flooding the App; the kernel's leases and the used-token table,
 * not this, are what keep state right across replicas.
 */
export function createRateLimiter(
  opts: { perMinute: number; burst: number },
  now: () => number = Date.now,
): RateLimiter {
  const buckets = new Map<string, Bucket>();
  const perMs = opts.perMinute / 60_000;
  return {
    take(key) {
      const t = now();
      const b = buckets.get(key) ?? { tokens: opts.burst, at: t };
      b.tokens = Math.min(opts.burst, b.tokens + (t - b.at) * perMs);
      b.at = t;
      if (b.tokens < 1) {
        buckets.set(key, b);
        const wait = Math.ceil((1 - b.tokens) / perMs / 1000);
        throw new ApiFailure(
          429,
          "rate_limited",
          `Too many tick API calls for this repository (at most ${opts.perMinute} a minute); retry after ${wait} s. A loop calling the API repeatedly is a workflow bug.`,
          wait,
        );
      }
      b.tokens -= 1;
      buckets.set(key, b);
      // Full buckets carry no information: drop them so the map stays small.
      if (buckets.size > 10_000) {
        for (const [k, v] of buckets) if (v.tokens >= opts.burst - 1) buckets.delete(k);
      }
    },
  };
}
