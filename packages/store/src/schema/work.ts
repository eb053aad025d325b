import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { tstz } from "./columns.ts";
import { goalRef } from "./goal-ref.ts";

export const todos = pgTable(
  "todos",
  {
    goalId: goalRef(),
    key: text("key").notNull(),
    // Key order is creation order (keys are minted from a counter and never reused).
    ordinal: integer("ordinal").notNull(),
    title: text("title").notNull(),
    detail: text("detail").notNull().default(""),
    status: text("status").notNull(),
    kind: text("kind").notNull(),
    position: integer("position").notNull(),
    origin: text("origin").notNull(),
    requiredScopes: jsonb("required_scopes").notNull(),
    // Globs the todo declared it touches; empty (every todo before them): it may touch anything.
    paths: jsonb("paths").notNull().default([]),
    // Files its pushed commits changed, from the report job's diff.
    pushedPaths: jsonb("pushed_paths").notNull().default([]),
    subIssueId: bigint("sub_issue_id", { mode: "number" }),
    subIssueNumber: integer("sub_issue_number"),
    claimTickId: uuid("claim_tick_id"),
    claimedBy: text("claimed_by"),
    leaseExpiresAt: tstz("lease_expires_at"),
    // Someone other than LoopX holds it (a claim command, an assignee of its sub-issue).
    heldBy: jsonb("held_by"),
    attempts: integer("attempts").notNull().default(0),
    resumeWhen: jsonb("resume_when"),
    blockedReason: text("blocked_reason"),
    completion: jsonb("completion"),
    createdAt: tstz("created_at").notNull(),
    updatedAt: tstz("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.goalId, t.key] }),
    // The windowed load (load.ts): unfinished todos, the newest finished, the plan's ends.
    index("todos_unfinished_idx")
      .on(t.goalId, t.ordinal)
      .where(sql`status NOT IN ('done', 'dropped')`),
    index("todos_finished_idx")
      .on(t.goalId, sql`(completion->>'at') DESC NULLS LAST`, sql`ordinal DESC`)
      .where(sql`status IN ('done', 'dropped')`),
    index("todos_position_idx").on(t.goalId, t.position),
    // Which todo an issue event's issue is the sub-issue of (find-by-sub-issue.ts): asked for
    // every issue closed, reopened, edited or assigned, across every goal in the store.
    index("todos_sub_issue_idx").on(t.subIssueId).where(sql`sub_issue_id IS NOT NULL`),
  ],
);

export const gates = pgTable(
  "gates",
  {
    goalId: goalRef(),
    key: text("key").notNull(),
    ordinal: integer("ordinal").notNull(),
    question: text("question").notNull(),
    scopes: jsonb("scopes").notNull(),
    status: text("status").notNull(),
    requestedFrom: jsonb("requested_from").notNull(),
    todo: text("todo"),
    prNumber: integer("pr_number"),
    prHeadSha: text("pr_head_sha"),
    prHeadSeenAt: tstz("pr_head_seen_at"),
    openedAt: tstz("opened_at").notNull(),
    resolvedBy: text("resolved_by"),
    resolvedAt: tstz("resolved_at"),
    note: text("note"),
  },
  (t) => [
    primaryKey({ columns: [t.goalId, t.key] }),
    // Gates that still grant or block (load.ts); expired ones are read only as recent history.
    index("gates_live_idx")
      .on(t.goalId, t.ordinal)
      .where(sql`status IN ('open', 'rejected', 'approved')`),
    index("gates_ordinal_idx").on(t.goalId, t.ordinal),
    // What approved gates grant, newest per scope set, without sorting them all.
    index("gates_approved_scopes_idx")
      .on(t.goalId, t.scopes, sql`ordinal DESC`)
      .where(sql`status = 'approved'`),
    // Which goals a pull request's event concerns (pull-links.ts), without their every gate.
    index("gates_pr_idx").on(t.goalId, t.prNumber).where(sql`pr_number IS NOT NULL`),
  ],
);

export const ticks = pgTable(
  "ticks",
  {
    id: uuid("id").primaryKey(),
    goalId: goalRef(),
    number: integer("number").notNull(),
    todo: text("todo").notNull(),
    agent: text("agent").notNull(),
    harness: text("harness").notNull(),
    runId: bigint("run_id", { mode: "number" }),
    runAttempt: integer("run_attempt"),
    // The tick slot (workflow concurrency group) it ran in; "" is a goal's one slot.
    slot: text("slot").notNull().default(""),
    leaseToken: text("lease_token").notNull(),
    leaseExpiresAt: tstz("lease_expires_at").notNull(),
    startedAt: tstz("started_at").notNull(),
    finishedAt: tstz("finished_at"),
    outcome: text("outcome"),
    failure: text("failure"),
    cost: jsonb("cost"),
    slotSpent: boolean("slot_spent").notNull().default(false),
    sessionId: text("session_id"),
  },
  (t) => [
    uniqueIndex("ticks_goal_number_uniq").on(t.goalId, t.number),
    // One claim per workflow run attempt: a replayed OIDC token cannot open a second tick.
    uniqueIndex("ticks_run_uniq").on(t.runId, t.runAttempt).where(sql`run_id IS NOT NULL`),
    // Open ticks (live or expired leases) are always loaded and swept.
    index("ticks_open_idx").on(t.goalId, t.leaseExpiresAt).where(sql`finished_at IS NULL`),
    index("ticks_goal_started_idx").on(t.goalId, t.startedAt),
  ],
);
