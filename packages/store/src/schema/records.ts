import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { tstz } from "./columns.ts";
import { goalRef } from "./goal-ref.ts";

/** `seq` keeps insertion order: several rows of one tick share an observed_at. */
export const evidence = pgTable(
  "evidence",
  {
    id: uuid("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    goalId: goalRef(),
    todo: text("todo"),
    tickId: uuid("tick_id"),
    kind: text("kind").notNull(),
    summary: text("summary").notNull(),
    url: text("url"),
    sha: text("sha"),
    observedAt: timestamp("observed_at", { withTimezone: true, mode: "date" }).notNull(),
    stale: boolean("stale").notNull().default(false),
  },
  (t) => [index("evidence_goal_seq_idx").on(t.goalId, t.seq)],
);

export const handoffs = pgTable(
  "handoffs",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    goalId: goalRef(),
    tickId: uuid("tick_id").notNull(),
    done: text("done").notNull(),
    next: text("next").notNull(),
    questions: jsonb("questions").notNull(),
    createdAt: tstz("created_at").notNull(),
  },
  // One handoff per tick.
  (t) => [uniqueIndex("handoffs_goal_tick_uniq").on(t.goalId, t.tickId)],
);

export const notes = pgTable(
  "notes",
  {
    id: uuid("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    goalId: goalRef(),
    from: text("from_login").notNull(),
    trusted: boolean("trusted").notNull(),
    text: text("text").notNull(),
    at: tstz("at").notNull(),
    deliveredTo: uuid("delivered_to"),
  },
  (t) => [
    index("notes_goal_seq_idx").on(t.goalId, t.seq),
    // The load's two windows (load.ts noteWindow): each a range of its own, however long the
    // goal's thread has grown on either side.
    index("notes_waiting_idx").on(t.goalId, t.trusted, t.seq).where(sql`delivered_to IS NULL`),
    index("notes_delivered_idx").on(t.goalId, t.seq).where(sql`delivered_to IS NOT NULL`),
  ],
);

export const pullRequests = pgTable(
  "pull_requests",
  {
    goalId: goalRef(),
    number: integer("number").notNull(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    todo: text("todo"),
    headRef: text("head_ref").notNull(),
    headSha: text("head_sha").notNull(),
    state: text("state").notNull(),
    /** The PR monitor's reading and what it acted on (core's PrMonitor; parsed on load). */
    monitor: jsonb("monitor").notNull().default({}),
  },
  (t) => [
    primaryKey({ columns: [t.goalId, t.number] }),
    // The windowed load (load.ts): open PRs and the newest.
    index("pull_requests_open_idx").on(t.goalId).where(sql`state = 'open'`),
    index("pull_requests_seq_idx").on(t.goalId, t.seq),
  ],
);
