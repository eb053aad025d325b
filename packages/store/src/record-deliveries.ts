/**
 * Webhook deliveries into the inbox, group-committed: while one INSERT is in flight, the
 * deliveries that arrive meanwhile wait and go in the next one, together. Under load a
 * webhook costs a share of one statement instead of a statement and a commit of its own;
 * alone it waits for nothing, as nothing is in flight.
 */
import { sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, rowsOf } from "./db.ts";
import type { DeliveryInput } from "./inbox.ts";
import { ESCAPED_SURROGATE, toJsonText } from "./json-insert.ts";

const Inserted = z.object({ delivery_id: z.string(), last: z.string() });

/**
 * One INSERT takes at most this many deliveries, and this much JSON past its first: a burst of
 * large payloads (GitHub sends up to 25 MB) is written in several statements, not one.
 */
const MOST_ROWS = 64;
const MOST_BYTES = 4 * 1024 * 1024;

interface Waiting {
  delivery: DeliveryInput;
  /** Its row as JSON, made when it arrives. */
  row: string;
  settle: (result: { inserted: boolean } | Error) => void;
}

/**
 * Redeliveries (GitHub's or the reconciler's) carry the same id and are inserted once, also
 * when both wait in one batch: the first caller is told it inserted, the other not.
 */
export function createDeliveryRecorder(
  db: Db,
): (d: DeliveryInput) => Promise<{ inserted: boolean }> {
  let queue: Waiting[] = [];
  let writing = false;
  // The last arrival time this recorder wrote, exactly as the database holds it.
  let after: string | null = null;
  const insert = async (batch: readonly Waiting[]) => {
    const { ids, last } = await insertAll(db, batch, after);
    after = last ?? after;
    return ids;
  };

  async function write(): Promise<void> {
    writing = true;
    while (queue.length > 0) {
      const batch = takeBatch(queue);
      queue = queue.slice(batch.length);
      try {
        const inserted = await insert(batch);
        for (const w of batch) w.settle({ inserted: inserted.delete(w.delivery.deliveryId) });
      } catch {
        // One delivery the database refuses must not fail the others it happened to wait with.
        for (const w of batch) {
          await insert([w]).then(
            (inserted) => w.settle({ inserted: inserted.size > 0 }),
            (error: unknown) => w.settle(error instanceof Error ? error : new Error(String(error))),
          );
        }
      }
    }
    writing = false;
  }

  return (delivery) =>
    new Promise((resolve, reject) => {
      queue.push({
        delivery,
        row: rowOf(delivery),
        settle: (result) => (result instanceof Error ? reject(result) : resolve(result)),
      });
      if (!writing) void write();
    });
}

/** The first waiting deliveries within one statement's share: always at least one. */
function takeBatch(queue: readonly Waiting[]): Waiting[] {
  const batch: Waiting[] = [];
  let bytes = 0;
  for (const w of queue) {
    if (batch.length > 0 && (batch.length >= MOST_ROWS || bytes + w.row.length > MOST_BYTES)) break;
    batch.push(w);
    bytes += w.row.length;
  }
  return batch;
}

/**
 * A delivery as a JSON row; the payload as its JSON text, lone surrogates replaced. Text
 * that came with the delivery is used as it is unless it escapes a surrogate (PostgreSQL
 * refuses lone ones; telling them from pairs is toJsonText's job, on the parsed value).
 */
function rowOf(d: DeliveryInput): string {
  const fields = JSON.stringify({
    delivery_id: d.deliveryId,
    event: d.event,
    action: d.action ?? null,
    installation_id: d.installationId ?? null,
    outcome: d.settled ?? null,
  });
  const text =
    d.payloadText !== undefined && !ESCAPED_SURROGATE.test(d.payloadText)
      ? d.payloadText
      : toJsonText(d.payload ?? null);
  return `${fields.slice(0, -1)},"payload":${text}}`;
}

/**
 * One statement for the batch; the rows travel as one JSON parameter (see json-insert.ts),
 * each payload as its JSON text with lone surrogates replaced (PostgreSQL refuses them). The inbox is processed in `received_at` order, so each row's is its arrival order: the
 * transaction's clock a microsecond apart per row, and never before `after` (a coarse clock,
 * as PGlite's, can read the same instant for the next batch). Returns the inserted ids and
 * the latest time written, as text: exact, where a Date would drop the microseconds.
 */
async function insertAll(
  db: Db,
  batch: readonly Waiting[],
  after: string | null,
): Promise<{ ids: Set<string>; last: string | null }> {
  const json = batch.map((w) => w.row);
  const answer = await db.execute(sql`
    WITH inserted AS (
    INSERT INTO inbox (delivery_id, event, action, installation_id, payload, received_at,
                       processed_at, outcome)
    SELECT m.delivery_id, m.event, m.action, m.installation_id, m.payload,
           greatest(now(), ${after}::timestamptz + interval '1 microsecond')
             + (m.n - 1) * interval '1 microsecond',
           CASE WHEN m.outcome IS NOT NULL THEN now() END, m.outcome
    FROM ROWS FROM (json_to_recordset(${`[${json.join(",")}]`}::text::json)
      AS (delivery_id text, event text, action text, installation_id bigint, outcome text,
          payload json))
      WITH ORDINALITY AS m(delivery_id, event, action, installation_id, outcome, payload, n)
    ORDER BY m.n
    ON CONFLICT DO NOTHING
    RETURNING delivery_id, received_at)
    SELECT delivery_id, (SELECT max(received_at) FROM inserted)::text AS last FROM inserted`);
  const rows = rowsOf(answer).map((r) => Inserted.parse(r));
  return { ids: new Set(rows.map((r) => r.delivery_id)), last: rows[0]?.last ?? null };
}
