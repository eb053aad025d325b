/**
 * Retention: rows that have served their purpose are deleted once they are older than the
 * retention time, a batch at a time, each batch through a partial index on its timestamp.
 *
 * - Processed inbox rows. A pending row is never touched. A processed row is the
 *   duplicate-delivery guard (X-GitHub-Delivery), so the caller's retention must outlast
 *   GitHub's redelivery window.
 * - Performed and dead-lettered outbox rows with no goal, or whose goal is done and has not
 *   changed for the retention time. A live goal's rows stay: each key is written once per
 *   goal, and the row is what says it was written.
 *
 * Events are not pruned: they are the goal's history, which the dashboard reads for
 * finished goals too (gate history) and commands read to stay applied once.
 */
import { sql } from "drizzle-orm";
import { type Db, rowsOf } from "./db.ts";

export interface PruneOptions {
  /** Rows older than this many milliseconds go. */
  retentionMs: number;
  /** At most this many rows of each table per call. */
  batch: number;
}

export interface Pruned {
  inbox: number;
  outbox: number;
}

export async function pruneRetained(db: Db, opts: PruneOptions): Promise<Pruned> {
  const cutoff = sql`now() - ${opts.retentionMs} * interval '1 millisecond'`;
  const inbox = rowsOf(
    await db.execute(sql`
      DELETE FROM inbox WHERE delivery_id IN (
        SELECT delivery_id FROM inbox
        WHERE processed_at IS NOT NULL AND processed_at < ${cutoff}
        ORDER BY processed_at LIMIT ${opts.batch})
      RETURNING 1`),
  ).length;
  // Done and dead rows are found through their own indexes, then kept unless their goal lets go.
  const outbox = rowsOf(
    await db.execute(sql`
      DELETE FROM outbox WHERE id IN (
        SELECT o.id FROM (
          (SELECT id, goal_id FROM outbox
           WHERE done_at IS NOT NULL AND done_at < ${cutoff} ORDER BY done_at LIMIT ${opts.batch})
          UNION
          (SELECT id, goal_id FROM outbox
           WHERE dead_at IS NOT NULL AND dead_at < ${cutoff} ORDER BY dead_at LIMIT ${opts.batch})
        ) o
        LEFT JOIN goals g ON g.id = o.goal_id
        WHERE o.goal_id IS NULL OR (g.status = 'done' AND g.updated_at < ${cutoff})
        LIMIT ${opts.batch})
      RETURNING 1`),
  ).length;
  return { inbox, outbox };
}
