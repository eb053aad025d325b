/** GitHub writes still to do, drained after commit by any replica. */
import { Effect } from "@loopx/core";
import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "./db.ts";
import * as s from "./schema/index.ts";

export interface OutboxItem {
  id: number;
  /** Null for the intake's rows about an issue with no goal. */
  goalId: string | null;
  /** Set on the intake's rows (a goal's own rows find it on the goal). */
  installationId: number | null;
  key: string;
  effect: Effect;
  /** The goal version this row was (last) enqueued at; render at least this version. */
  goalVersion: number;
  attempts: number;
  lastError: string | null;
  deadAt: Date | null;
}

function toItem(r: typeof s.outbox.$inferSelect): OutboxItem {
  return {
    id: r.id,
    goalId: r.goalId,
    installationId: r.installationId,
    key: r.key,
    effect: Effect.parse(r.payload),
    goalVersion: r.goalVersion,
    attempts: r.attempts,
    lastError: r.lastError,
    deadAt: r.deadAt,
  };
}

export interface DueOutboxOptions {
  /** How long the rows taken are leased (default 60 s). */
  leaseMs?: number;
  /** Only rows of these effect kinds (a lane of their own). */
  kinds?: readonly Effect["kind"][];
}

/**
 * When a row made due again (a newer render, a revival) is next taken: now, unless a worker
 * holds its lease; then once the lease ends, or as soon as that worker finishes (see
 * markOutboxDone), so one row is never written by two workers at once.
 */
export const DUE_UNLESS_LEASED = `CASE WHEN "outbox"."leased_until" > now() THEN "outbox"."leased_until" ELSE now() END`;
export const dueUnlessLeased = sql.raw(DUE_UNLESS_LEASED);

/**
 * Takes up to `limit` due rows and leases them for `leaseMs` (pushing next_attempt_at), so
 * replicas draining at once get different rows; a worker that dies frees them at expiry.
 */
export async function dueOutbox(
  db: Db,
  limit: number,
  opts: DueOutboxOptions = {},
): Promise<OutboxItem[]> {
  const leaseMs = opts.leaseMs ?? 60_000;
  const due = db
    .select({ id: s.outbox.id })
    .from(s.outbox)
    .where(
      and(
        isNull(s.outbox.doneAt),
        isNull(s.outbox.deadAt),
        lte(s.outbox.nextAttemptAt, sql`now()`),
        opts.kinds === undefined ? undefined : inArray(s.outbox.kind, [...opts.kinds]),
      ),
    )
    .orderBy(asc(s.outbox.nextAttemptAt), asc(s.outbox.id))
    .limit(limit)
    .for("update", { skipLocked: true });
  const rows = await db
    .update(s.outbox)
    .set({
      nextAttemptAt: sql`now() + ${leaseMs} * interval '1 millisecond'`,
      leasedUntil: sql`now() + ${leaseMs} * interval '1 millisecond'`,
      updatedAt: sql`now()`,
    })
    .where(sql`${s.outbox.id} IN ${due}`)
    .returning();
  return rows.sort((a, b) => a.id - b.id).map(toItem);
}

/**
 * Done — unless a newer goal version was enqueued meanwhile (a coalesced body/status row
 * moved forward while this write was in flight): then the row stays due for the newer one.
 */
export async function markOutboxDone(
  db: Db,
  id: number,
  opts: { goalVersion?: number } = {},
): Promise<boolean> {
  const conditions = [eq(s.outbox.id, id), isNull(s.outbox.doneAt)];
  if (opts.goalVersion !== undefined) conditions.push(eq(s.outbox.goalVersion, opts.goalVersion));
  const rows = await db
    .update(s.outbox)
    .set({ doneAt: sql`now()`, leasedUntil: null, lastError: null, updatedAt: sql`now()` })
    .where(and(...conditions))
    .returning({ id: s.outbox.id });
  if (rows.length > 0) return true;
  // A newer render waited for this write: it is due now.
  await db
    .update(s.outbox)
    .set({ nextAttemptAt: sql`now()`, leasedUntil: null, updatedAt: sql`now()` })
    .where(and(eq(s.outbox.id, id), isNull(s.outbox.doneAt)));
  return false;
}

export async function markOutboxFailed(
  db: Db,
  id: number,
  error: string,
  retryAt: Date,
): Promise<void> {
  await db
    .update(s.outbox)
    .set({
      attempts: sql`${s.outbox.attempts} + 1`,
      lastError: error.slice(0, 2000),
      nextAttemptAt: retryAt,
      leasedUntil: null,
      updatedAt: sql`now()`,
    })
    .where(eq(s.outbox.id, id));
}

/** A write that cannot succeed (403/404/410): parked where the status surfaces show it. */
export async function deadLetter(db: Db, id: number, reason: string): Promise<void> {
  await db
    .update(s.outbox)
    .set({
      deadAt: sql`now()`,
      leasedUntil: null,
      attempts: sql`${s.outbox.attempts} + 1`,
      lastError: reason.slice(0, 2000),
      updatedAt: sql`now()`,
    })
    .where(eq(s.outbox.id, id));
}

export async function deadLetters(db: Db, goalId: string): Promise<OutboxItem[]> {
  const rows = await db
    .select()
    .from(s.outbox)
    .where(and(eq(s.outbox.goalId, goalId), isNotNull(s.outbox.deadAt)))
    .orderBy(desc(s.outbox.deadAt));
  return rows.map(toItem);
}

export async function outboxForGoal(db: Db, goalId: string): Promise<OutboxItem[]> {
  const rows = await db
    .select()
    .from(s.outbox)
    .where(eq(s.outbox.goalId, goalId))
    .orderBy(asc(s.outbox.id));
  return rows.map(toItem);
}
