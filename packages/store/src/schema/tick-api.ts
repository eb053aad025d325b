import { bigint, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { tstz } from "./columns.ts";
import { goals } from "./goals.ts";

/**
 * OIDC token ids (`jti`) the tick API accepted: a token is used once. Rows outlive the
 * token's expiry by a retention window, so `run_id` also tells whether a workflow run
 * ever reached the API (the workflow_run watcher reads it).
 */
export const usedTokens = pgTable(
  "used_tokens",
  {
    jti: text("jti").primaryKey(),
    repoId: bigint("repo_id", { mode: "number" }).notNull(),
    runId: bigint("run_id", { mode: "number" }).notNull(),
    expiresAt: tstz("expires_at").notNull(),
    usedAt: tstz("used_at").notNull().defaultNow(),
  },
  (t) => [
    index("used_tokens_run_idx").on(t.runId),
    index("used_tokens_expires_idx").on(t.expiresAt),
  ],
);

/**
 * The app's last dispatch of a goal's tick. A goal is dispatched once per wake instant
 * (`wake_at`), and again only after a quiet interval, so a due goal whose ask keeps
 * answering "wait" never turns into a dispatch storm.
 */
export const tickDispatches = pgTable(
  "tick_dispatches",
  {
    goalId: uuid("goal_id")
      .primaryKey()
      .references(() => goals.id, { onDelete: "cascade" }),
    wakeAt: tstz("wake_at"),
    dispatchedAt: tstz("dispatched_at").notNull().defaultNow(),
    /** The workflow run GitHub started for it, when GitHub said (`return_run_details`). */
    runId: bigint("run_id", { mode: "number" }),
  },
  (t) => [index("tick_dispatches_run_idx").on(t.runId)],
);
