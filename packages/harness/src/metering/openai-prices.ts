import { z } from "zod";
import { PriceTable } from "../price-table.ts";

/** USD per million tokens by exact model id: the shape of the shipped table and of overrides. */
export const ModelPrices = z.record(
  z.string().min(1, "a model id, e.g. gpt-5.5"),
  PriceTable,
  "a table keyed by model id",
);
export type ModelPrices = z.infer<typeof ModelPrices>;

/**
 * OpenAI's list prices (standard tier) for the models the pinned codex CLI (0.171) offers
 * and that OpenAI prices publicly, from https://platform.openai.com/docs/pricing as of June
 * 2026. A model missing here (a newer one, or a gateway's own id) has no price: the metering
 * proxy charges the slice its cap for it, and the action says how to add one.
 */
export const OPENAI_PRICES: ModelPrices = {
  "gpt-5.5": { inputPerMTok: 5, cachedInputPerMTok: 0.5, outputPerMTok: 30 },
  "gpt-5.4": { inputPerMTok: 2.5, cachedInputPerMTok: 0.25, outputPerMTok: 15 },
  "gpt-5.4-mini": { inputPerMTok: 0.75, cachedInputPerMTok: 0.075, outputPerMTok: 4.5 },
  "gpt-5.4-nano": { inputPerMTok: 0.2, cachedInputPerMTok: 0.02, outputPerMTok: 1.25 },
  "gpt-5.2": { inputPerMTok: 1.75, cachedInputPerMTok: 0.175, outputPerMTok: 14 },
  "gpt-5.2-codex": { inputPerMTok: 1.75, cachedInputPerMTok: 0.175, outputPerMTok: 14 },
  "gpt-5.1-codex-max": { inputPerMTok: 1.25, cachedInputPerMTok: 0.125, outputPerMTok: 10 },
};

/** A dated snapshot (`gpt-5.5-2026-04-23`) is priced as its model. */
const SNAPSHOT = /-\d{4}-\d{2}-\d{2}$/;

/** The model's prices, or null when the table has none for it. */
export function priceFor(table: ModelPrices, model: string | null): PriceTable | null {
  if (!model) return null;
  return table[model] ?? table[model.replace(SNAPSHOT, "")] ?? null;
}
