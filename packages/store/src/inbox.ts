/** Webhook deliveries: stored as received, processed from here, at most once each. */
import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, rowsOf } from "./db.ts";
import { fromJson } from "./load.ts";
import * as s from "./schema/index.ts";

export interface DeliveryInput {
  /** GitHub's X-GitHub-Delivery header. */
  deliveryId: string;
  event: string;
  action?: string | null | undefined;
  installationId?: number | null | undefined;
  payload: unknown;
  /**
   * `payload` as the JSON text it was parsed from (a webhook's body, signature-checked):
   * stored as it came, where serialising `payload` again would cost as much as parsing it.
   */
  payloadText?: string | undefined;
  /**
   * Its outcome, when that is known on arrival (no handler reads this kind of event, or its
   * payload alone says it changes nothing): the row is stored processed, with this outcome,
   * and no worker pass reads it back.
   */
  settled?: string | null | undefined;
}

export type Delivery = typeof s.inbox.$inferSelect;

const Raw = z.record(z.string(), z.unknown());

/**
 * Pending deliveries, round-robin across installations (the first of each, then the second
 * of each, …) and at most `perInstallation` each, so one organisation's check-run
 * firehose cannot starve the rest.
 *
 * Index-backed (inbox_pending_idx): the installations with pending rows are found by
 * skipping through the index one installation at a time, and each is read only as far as
 * its first `perInstallation` due rows, so a backlog costs a batch its installations and its
 * rows, not the whole queue.
 */
export async function pendingDeliveries(
  db: Db,
  limit: number,
  opts: { perInstallation?: number } = {},
): Promise<Delivery[]> {
  const per = opts.perInstallation ?? limit;
  const rows = rowsOf(await db.execute(pendingQuery(limit, per)));
  // Read back through each column's own driver mapping, as drizzle's select would.
  return rows.map((r) => fromJson(s.inbox, Raw.parse(r)));
}

/** The batch's statement (the bench EXPLAINs it). */
export function pendingQuery(limit: number, per: number) {
  return sql`
    WITH RECURSIVE inst(id) AS (
      (SELECT installation_id FROM inbox
       WHERE processed_at IS NULL AND installation_id IS NOT NULL
       ORDER BY installation_id LIMIT 1)
      UNION ALL
      SELECT (SELECT installation_id FROM inbox
              WHERE processed_at IS NULL AND installation_id > inst.id
              ORDER BY installation_id LIMIT 1)
      FROM inst WHERE inst.id IS NOT NULL
    ),
    picked AS (
      SELECT p.* FROM inst CROSS JOIN LATERAL (
        SELECT delivery_id, received_at,
               row_number() OVER (ORDER BY received_at, delivery_id) AS rn
        FROM (SELECT delivery_id, received_at FROM inbox
              WHERE processed_at IS NULL AND installation_id = inst.id
                AND next_attempt_at <= now()
              ORDER BY received_at, delivery_id LIMIT ${per}) f
      ) p WHERE inst.id IS NOT NULL
      UNION ALL
      SELECT delivery_id, received_at,
             row_number() OVER (ORDER BY received_at, delivery_id) AS rn
      FROM (SELECT delivery_id, received_at FROM inbox
            WHERE processed_at IS NULL AND installation_id IS NULL
              AND next_attempt_at <= now()
            ORDER BY received_at, delivery_id LIMIT ${per}) n
    )
    SELECT i.* FROM (
      SELECT * FROM picked ORDER BY rn, received_at, delivery_id LIMIT ${limit}
    ) q
    JOIN inbox i USING (delivery_id)
    ORDER BY q.rn, q.received_at, q.delivery_id`;
}

/**
 * For a delivery that caused no transition (ignored event, or handled elsewhere). A
 * delivery that causes one is marked by `apply({ deliveryId })` in that transaction.
 * Returns false if it was already processed.
 */
export async function markDeliveryProcessed(
  db: Db,
  deliveryId: string,
  outcome = "ignored",
): Promise<boolean> {
  const rows = await db
    .update(s.inbox)
    .set({ processedAt: sql`now()`, outcome })
    .where(and(eq(s.inbox.deliveryId, deliveryId), isNull(s.inbox.processedAt)))
    .returning({ id: s.inbox.deliveryId });
  return rows.length > 0;
}

/**
 * `markDeliveryProcessed` for many deliveries in one statement (the inbox worker marks a
 * batch's ignored deliveries together). Returns how many were still pending.
 */
export async function markDeliveriesProcessed(
  db: Db,
  marks: readonly { deliveryId: string; outcome: string }[],
): Promise<number> {
  if (marks.length === 0) return 0;
  const json = JSON.stringify(marks.map((m) => ({ id: m.deliveryId, outcome: m.outcome })));
  const rows = rowsOf(
    await db.execute(sql`
      UPDATE inbox SET processed_at = now(), outcome = m.outcome
      FROM jsonb_to_recordset(${json}::text::jsonb) AS m(id text, outcome text)
      WHERE inbox.delivery_id = m.id AND inbox.processed_at IS NULL
      RETURNING 1`),
  );
  return rows.length;
}

/** Keeps it pending and retries later: at `retryAt`, or after 2^attempts minutes (capped). */
export async function markDeliveryFailed(
  db: Db,
  deliveryId: string,
  error: string,
  retryAt?: Date,
): Promise<void> {
  await db
    .update(s.inbox)
    .set({
      attempts: sql`${s.inbox.attempts} + 1`,
      error: error.slice(0, 2000),
      nextAttemptAt:
        retryAt ?? sql`now() + interval '1 minute' * power(2, least(${s.inbox.attempts}, 8))`,
    })
    .where(and(eq(s.inbox.deliveryId, deliveryId), isNull(s.inbox.processedAt)));
}

export async function getDelivery(db: Db, deliveryId: string): Promise<Delivery | null> {
  const [row] = await db.select().from(s.inbox).where(eq(s.inbox.deliveryId, deliveryId));
  return row ?? null;
}
