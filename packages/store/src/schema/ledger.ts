import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { tstz } from "./columns.ts";
import { goals } from "./goals.ts";

/** Append-only: every accepted transition, with who, what caused it and the versions around it. */
export const events = pgTable(
  "events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    goalId: uuid("goal_id")
      .notNull()
      .references(() => goals.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    actor: jsonb("actor").notNull(),
    deliveryId: text("delivery_id"),
    tickId: uuid("tick_id"),
    at: tstz("at").notNull(),
    data: jsonb("data").notNull(),
    versionBefore: integer("version_before"),
    versionAfter: integer("version_after").notNull(),
  },
  (t) => [
    index("events_goal_idx").on(t.goalId, t.id),
    // Whether a comment was applied (pull-links.ts): only the events a comment caused, so a
    // goal's every comment does not read its whole history.
    index("events_comment_idx")
      .on(t.goalId, sql`(data->>'commentId')`)
      .where(sql`data ? 'commentId'`),
  ],
);

/** Webhook deliveries as received; processed_at is set in the transaction they caused. */
export const inbox = pgTable(
  "inbox",
  {
    deliveryId: text("delivery_id").primaryKey(),
    event: text("event").notNull(),
    action: text("action"),
    installationId: bigint("installation_id", { mode: "number" }),
    payload: json("payload").notNull(),
    receivedAt: tstz("received_at").notNull().defaultNow(),
    nextAttemptAt: tstz("next_attempt_at").notNull().defaultNow(),
    processedAt: tstz("processed_at"),
    /** applied, ignored, or refused:<code> — why it left the queue. */
    outcome: text("outcome"),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
  },
  (t) => [
    // The batch's order within an installation, so a batch reads its first rows, not all.
    index("inbox_pending_idx")
      .on(t.installationId, t.receivedAt, t.deliveryId)
      .where(sql`processed_at IS NULL`),
    // Retention: the oldest processed rows first.
    index("inbox_processed_idx").on(t.processedAt).where(sql`processed_at IS NOT NULL`),
  ],
);

/**
 * GitHub writes still to do. UNIQUE(goal_id, key): `body`/`status` rows are upserted to the
 * newest goal version (coalesced); every other key is written once.
 */
export const outbox = pgTable(
  "outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** Null for a reply about an issue with no goal (a refused start, an outsider's command). */
    goalId: uuid("goal_id").references(() => goals.id, { onDelete: "cascade" }),
    /** Set on the intake's rows: where to write when there is no goal to ask. */
    installationId: bigint("installation_id", { mode: "number" }),
    key: text("key").notNull(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").notNull(),
    goalVersion: integer("goal_version").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: tstz("next_attempt_at").notNull().defaultNow(),
    /**
     * While a worker holds the row (it took it and has not finished): a newer render enqueued
     * meanwhile waits for it, so two workers never write the same row at once (two replicas
     * would each POST a comment that does not exist yet).
     */
    leasedUntil: tstz("leased_until"),
    doneAt: tstz("done_at"),
    deadAt: tstz("dead_at"),
    lastError: text("last_error"),
    createdAt: tstz("created_at").notNull().defaultNow(),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("outbox_goal_key_uniq").on(t.goalId, t.key),
    // A goal-less row is written once per installation and key, as a goal's is per goal.
    uniqueIndex("outbox_installation_key_uniq")
      .on(t.installationId, t.key)
      .where(sql`goal_id IS NULL`),
    check("outbox_has_target", sql`goal_id IS NOT NULL OR installation_id IS NOT NULL`),
    index("outbox_due_idx").on(t.nextAttemptAt).where(sql`done_at IS NULL AND dead_at IS NULL`),
    // Retention: performed and dead-lettered rows, oldest first.
    index("outbox_done_idx").on(t.doneAt).where(sql`done_at IS NOT NULL`),
    index("outbox_dead_idx").on(t.deadAt).where(sql`dead_at IS NOT NULL`),
  ],
);
