import { z } from "zod";

/** What one tick or a total of ticks cost. Charged to the cost ledger for every tick. */
export const Cost = z.object({
  usd: z.number().nonnegative().finite(),
  tokens: z.number().int().nonnegative(),
  runnerMinutes: z.number().nonnegative().finite(),
});
export type Cost = z.infer<typeof Cost>;

export const ZERO_COST: Cost = Object.freeze({ usd: 0, tokens: 0, runnerMinutes: 0 });

/**
 * Cost limits. An absent field means "no limit at this level"; the effective limit is the
 * minimum over goal, repository, installation and whatever the caller asked for.
 */
export const CostLimits = z.object({
  usd: z.number().nonnegative().finite().optional(),
  tokens: z.number().int().nonnegative().optional(),
  runnerMinutes: z.number().nonnegative().finite().optional(),
  ticks: z.number().int().nonnegative().optional(),
});
export type CostLimits = z.infer<typeof CostLimits>;

/**
 * The slot quota: LoopX's duty cycle. `allowedSlots = windowHours * 60 / slotMinutes * compute`,
 * counted over a rolling window of spent slots. `compute: 0` is a hard pause.
 */
export const QuotaPolicy = z.object({
  windowHours: z
    .number()
    .positive()
    .max(24 * 7),
  slotMinutes: z
    .number()
    .positive()
    .max(24 * 60),
  compute: z.number().min(0).max(1),
});
export type QuotaPolicy = z.infer<typeof QuotaPolicy>;

export const DEFAULT_QUOTA: QuotaPolicy = Object.freeze({
  windowHours: 24,
  slotMinutes: 30,
  compute: 1,
});

/** What is left above this goal, handed to decide() by the caller (the store computes it). */
export const SharedAllowance = z.object({
  repository: CostLimits.optional(),
  installation: CostLimits.optional(),
});
export type SharedAllowance = z.infer<typeof SharedAllowance>;
