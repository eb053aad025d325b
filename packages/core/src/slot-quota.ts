import type { QuotaPolicy } from "./schemas/budget.ts";
import type { Tick } from "./schemas/tick.ts";

/** `floor(windowHours*60/slotMinutes*compute)`; the epsilon absorbs float error (0.29*100). */
export function allowedSlots(policy: QuotaPolicy): number {
  return Math.floor(((policy.windowHours * 60) / policy.slotMinutes) * policy.compute + 1e-9);
}

export interface SlotUsage {
  allowed: number;
  /** Slots spent in the rolling window ending at `now`. */
  spent: number;
  /** When the next slot frees, if the window is full; null when one is free or never frees. */
  nextFreeAt: Date | null;
}

/** Slot spends are ticks with `slotSpent` whose finish lies in (now - window, now]. */
export function slotUsage(policy: QuotaPolicy, ticks: readonly Tick[], now: Date): SlotUsage {
  const allowed = allowedSlots(policy);
  const windowMs = policy.windowHours * 3_600_000;
  const start = now.getTime() - windowMs;
  const times: number[] = [];
  for (const t of ticks) {
    if (!t.slotSpent || t.finishedAt === null) continue;
    const at = t.finishedAt.getTime();
    if (at > start && at <= now.getTime()) times.push(at);
  }
  const spent = times.length;
  if (allowed === 0 || spent < allowed) return { allowed, spent, nextFreeAt: null };
  times.sort((a, b) => a - b);
  // The window has room again once enough of the oldest spends have aged out.
  const freeing = times[spent - allowed] ?? times[0] ?? now.getTime();
  return { allowed, spent, nextFreeAt: new Date(freeing + windowMs) };
}
