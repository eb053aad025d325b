import type { Clock } from "./clock.ts";

/** A fault on matching requests: an error status (5xx, 429, 403 with retry-after) and/or latency. */
export interface RouteFault {
  /** HTTP method to match; any when absent. */
  method?: string;
  /** A route template (`/repos/{owner}/{repo}/issues`) or operationId (`issues/create`); any when absent. */
  route?: string;
  status?: 500 | 502 | 503 | 429 | 403;
  /** Seconds, sent as `retry-after` with 429/403. */
  retryAfter?: number;
  /** Real milliseconds to wait before answering. */
  latencyMs?: number;
  /**
   * With `status`: the request is performed first and then answered with that error, as when
   * GitHub commits a write and the caller's connection times out before the answer arrives.
   */
  afterCommit?: boolean;
  /** How many requests it applies to; unlimited when absent. */
  times?: number;
}

export const SECONDARY_LIMIT_MESSAGE =
  "You have exceeded a secondary rate limit and have been temporarily blocked from content creation. Please retry your request again later. If you reach out to GitHub Support for help, please include the request ID";

export class Faults {
  private readonly routes: RouteFault[] = [];
  /** Content-creation secondary limit (80/min, 500/h per installation or user). */
  secondaryLimits = true;
  private readonly created = new Map<string, number[]>();

  constructor(private readonly clock: Clock) {}

  add(fault: RouteFault): void {
    this.routes.push({ ...fault });
  }

  clear(): void {
    this.routes.length = 0;
  }

  take(method: string, template: string, operationId: string): RouteFault | undefined {
    const fault = this.routes.find(
      (f) =>
        (!f.method || f.method.toUpperCase() === method) &&
        (!f.route || f.route === template || f.route === operationId),
    );
    if (!fault) return undefined;
    if (fault.times !== undefined && --fault.times <= 0)
      this.routes.splice(this.routes.indexOf(fault), 1);
    return fault;
  }

  /** Records a content-creating request; returns retry-after seconds when over the limit. */
  contentCreation(key: string): number | null {
    const now = this.clock.now();
    const times = (this.created.get(key) ?? []).filter((t) => t > now - 3_600_000);
    this.created.set(key, times);
    if (this.secondaryLimits) {
      const lastMinute = times.filter((t) => t > now - 60_000);
      if (lastMinute.length >= 80)
        return Math.max(1, Math.ceil(((lastMinute[0] ?? now) + 60_000 - now) / 1000));
      if (times.length >= 500)
        return Math.max(1, Math.ceil(((times[0] ?? now) + 3_600_000 - now) / 1000));
    }
    times.push(now);
    return null;
  }

  /** Content-creating requests counted in the last hour, per installation/user key. */
  contentCounts(): Record<string, number> {
    return Object.fromEntries([...this.created.entries()].map(([k, v]) => [k, v.length]));
  }
}
