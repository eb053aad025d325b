import type { PriceTable } from "../price-table.ts";

/**
 * Anthropic's list prices, USD per million tokens, by model family (longest prefix wins).
 * A model not listed is charged as the most expensive one, so the metered figure can only
 * overstate what a slice spent, never understate it.
 */
const OPUS: PriceTable = {
  inputPerMTok: 15,
  outputPerMTok: 75,
  cachedInputPerMTok: 1.5,
  cacheWritePerMTok: 18.75,
};
const SONNET: PriceTable = {
  inputPerMTok: 3,
  outputPerMTok: 15,
  cachedInputPerMTok: 0.3,
  cacheWritePerMTok: 3.75,
};

const FAMILIES: [prefix: string, prices: PriceTable][] = [
  [
    "claude-opus-4-5",
    { inputPerMTok: 5, outputPerMTok: 25, cachedInputPerMTok: 0.5, cacheWritePerMTok: 6.25 },
  ],
  ["claude-opus", OPUS],
  ["claude-sonnet", SONNET],
  ["claude-3-7-sonnet", SONNET],
  ["claude-3-5-sonnet", SONNET],
  [
    "claude-haiku-4-5",
    { inputPerMTok: 1, outputPerMTok: 5, cachedInputPerMTok: 0.1, cacheWritePerMTok: 1.25 },
  ],
  [
    "claude-3-5-haiku",
    { inputPerMTok: 0.8, outputPerMTok: 4, cachedInputPerMTok: 0.08, cacheWritePerMTok: 1 },
  ],
];
const MOST_EXPENSIVE = OPUS;

export function anthropicPrices(model: string | null): PriceTable {
  if (!model) return MOST_EXPENSIVE;
  let best: [string, PriceTable] | null = null;
  for (const entry of FAMILIES) {
    if (model.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1] ?? MOST_EXPENSIVE;
}
