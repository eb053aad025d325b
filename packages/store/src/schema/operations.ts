import { bigint, bigserial, index, pgTable, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns.ts";

/**
 * Content-creating requests sent per installation (a sliding log, pruned after an hour):
 * GitHub's secondary limits (80/min, 500/h) are judged on a sliding window, so the budget
 * counts the same way, shared by every replica through the database. `lane` keeps replies
 * to outsiders apart from LoopX's own comments (`subject` says who was answered), so a
 * burst of strangers' commands never spends what the gate and status comments need.
 */
export const contentBudget = pgTable(
  "content_budget",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    installationId: bigint("installation_id", { mode: "number" }).notNull(),
    lane: text("lane").notNull().default("loopx"),
    subject: text("subject"),
    at: tstz("at").notNull().defaultNow(),
  },
  (t) => [
    index("content_budget_installation_at_idx").on(t.installationId, t.at),
    index("content_budget_subject_idx").on(t.subject, t.at),
  ],
);

/**
 * Dashboard sessions ended by signing out, until their cookie would have expired anyway: a
 * sealed cookie is valid by itself, so a copy of it (another tab, a stolen one) is refused
 * only because its id is here — on every replica.
 */
export const endedSessions = pgTable(
  "ended_sessions",
  {
    id: text("id").primaryKey(),
    expiresAt: tstz("expires_at").notNull(),
  },
  (t) => [index("ended_sessions_expires_idx").on(t.expiresAt)],
);

/** Small named positions that survive restarts (e.g. the webhook-delivery reconciler's). */
export const cursors = pgTable("cursors", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  updatedAt: tstz("updated_at").notNull().defaultNow(),
});
