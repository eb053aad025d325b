import { z } from "zod";

/** USD per million tokens. Codex reports tokens only, so its cost comes from this table. */
export const PriceTable = z.object({
  inputPerMTok: z.number().nonnegative(),
  outputPerMTok: z.number().nonnegative(),
  cachedInputPerMTok: z.number().nonnegative().optional(),
  cacheWritePerMTok: z.number().nonnegative().optional(),
});
export type PriceTable = z.infer<typeof PriceTable>;

export interface TokenUsage {
  input: number;
  output: number;
  cachedInput?: number;
  cacheWrite?: number;
}

export function usdFor(prices: PriceTable, usage: TokenUsage): number {
  const cached = usage.cachedInput ?? 0;
  const write = usage.cacheWrite ?? 0;
  return (
    (usage.input * prices.inputPerMTok +
      usage.output * prices.outputPerMTok +
      cached * (prices.cachedInputPerMTok ?? prices.inputPerMTok) +
      write * (prices.cacheWritePerMTok ?? prices.inputPerMTok)) /
    1_000_000
  );
}
