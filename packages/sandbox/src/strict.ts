import type { RequestLogEntry } from "./request-log.ts";

/**
 * Calls to endpoints no sandbox in this process implements, not yet claimed by a test. The
 * test support's `afterEach` takes them and fails the test that made them, so a missing route
 * is never a silent 404 the code under test shrugged off.
 */
const unclaimed: RequestLogEntry[] = [];

export function recordUnsupported(entry: RequestLogEntry): void {
  unclaimed.push(entry);
}

/** Returns and forgets the unsupported calls made since the last take. */
export function takeUnsupported(): RequestLogEntry[] {
  return unclaimed.splice(0, unclaimed.length);
}
