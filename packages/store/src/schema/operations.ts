import { bigint, bigserial, index, pgTable, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns.ts";

/**
 * Content-creating requests sent per installation (a sliding log, pruned after an hour):
 * GitHub's secondary limits (80/min, 500/h) are judged on a sliding window, so the budget
 * counts the same way, shared by every replica through the database.
 */
export const contentBudget = pgTable(
  "content_budget",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    installationId: bigint("installation_id", { mode: "number" }).notNull(),
    at: tstz("at").notNull().defaultNow(),
  },
  (t) => [index("content_budget_installation_at_idx").on(t.installationId, t.at)],
);

/** Small named positions that survive restarts (e.g. the webhook-delivery reconciler's). */
export const cursors = pgTable("cursors", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  updatedAt: tstz("updated_at").notNull().defaultNow(),
});
