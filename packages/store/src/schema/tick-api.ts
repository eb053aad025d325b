import { bigint, index, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
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
 * The app's last dispatch of a goal's tick, per slot. A goal is dispatched once per wake
 * instant (`wake_at`, on its `''` row), and again only after a quiet interval, so a due goal
 * whose ask keeps answering "wait" never turns into a dispatch storm. A goal running ticks in
 * parallel also has a row per slot `1`..`N` it dispatched into: a slot with a dispatch not yet
 * claimed is not dispatched into again, so two runs never queue behind one concurrency group.
 */
export const tickDispatches = pgTable(
  "tick_dispatches",
  {
    goalId: uuid("goal_id")
      .notNull()
      .references(() => goals.id, { onDelete: "cascade" }),
    slot: text("slot").notNull().default(""),
    wakeAt: tstz("wake_at"),
    dispatchedAt: tstz("dispatched_at").notNull().defaultNow(),
    /** The workflow run GitHub started for it, when GitHub said (`return_run_details`). */
    runId: bigint("run_id", { mode: "number" }),
  },
  (t) => [
    primaryKey({ columns: [t.goalId, t.slot] }),
    index("tick_dispatches_run_idx").on(t.runId),
  ],
);
