/** The inbox row a transition settles: locked first, marked processed in the same transaction. */
import { sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, rowsOf } from "./db.ts";
import { RefusalError } from "./errors.ts";

const Taken = z.object({ processed: z.boolean() });

/**
 * Locks the delivery row: a second processor of the same delivery waits, then sees it done.
 * This and the other per-delivery statements are plain SQL: see json-insert.ts for why.
 */
export async function takeDelivery(tx: Db, deliveryId: string | undefined): Promise<void> {
  if (deliveryId === undefined) return;
  const [raw] = rowsOf(
    await tx.execute(
      sql`SELECT processed_at IS NOT NULL AS processed FROM inbox WHERE delivery_id = ${deliveryId} FOR UPDATE`,
    ),
  );
  if (raw === undefined) {
    throw new RefusalError({
      code: "not_found",
      message: `delivery ${deliveryId} is not in the inbox; record it with recordDelivery first`,
    });
  }
  if (Taken.parse(raw).processed) {
    throw new RefusalError({
      code: "duplicate",
      message: `delivery ${deliveryId} was already processed`,
    });
  }
}

export async function finishDelivery(tx: Db, deliveryId: string | undefined, outcome: string) {
  if (deliveryId === undefined) return;
  await tx.execute(
    sql`UPDATE inbox SET processed_at = now(), outcome = ${outcome}, error = NULL WHERE delivery_id = ${deliveryId}`,
  );
}
