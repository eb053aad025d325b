/**
 * What operators and the app's housekeeping read and write outside goal transitions:
 * health, lag figures for /metrics, per-installation controls from the deployment's
 * settings, deferred outbox rows and small persistent cursors.
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, rowsOf } from "./db.ts";
import { dueUnlessLeased } from "./outbox.ts";
import * as s from "./schema/index.ts";

const Lag = z.object({
  count: z.coerce.number(),
  oldest_age_seconds: z.coerce.number().nullable(),
});
const Count = z.object({ count: z.coerce.number() });
const SpendRow = z.object({
  installation_id: z.coerce.number(),
  usd: z.coerce.number(),
  ticks: z.coerce.number(),
  kill_switch: z.boolean(),
  ceiling_usd: z.coerce.number().nullable(),
});

export interface Lag {
  count: number;
  /** Age of the oldest item, in seconds (null when there is none). */
  oldestAgeSeconds: number | null;
}

export interface OperationsSnapshot {
  /** Deliveries received and not yet processed. */
  inbox: Lag & { failing: number };
  /** Writes due now (not leased, not deferred to later). */
  outbox: Lag & { pending: number };
  deadLetters: number;
  spend: {
    installationId: number;
    usd: number;
    ticks: number;
    ceilingUsd: number | null;
    killed: boolean;
  }[];
}

async function lag(db: Db, query: ReturnType<typeof sql>): Promise<Lag> {
  const r = Lag.parse(rowsOf(await db.execute(query))[0]);
  return { count: r.count, oldestAgeSeconds: r.oldest_age_seconds };
}

async function count(db: Db, query: ReturnType<typeof sql>): Promise<number> {
  return Count.parse(rowsOf(await db.execute(query))[0]).count;
}

/** Throws when the database does not answer. */
export async function ping(db: Db): Promise<void> {
  await db.execute(sql`SELECT 1`);
}

export async function operationsSnapshot(db: Db): Promise<OperationsSnapshot> {
  const inbox = await lag(
    db,
    sql`SELECT count(*) AS count, extract(epoch FROM now() - min(received_at)) AS oldest_age_seconds
        FROM inbox WHERE processed_at IS NULL`,
  );
  const failing = await count(
    db,
    sql`SELECT count(*) AS count FROM inbox WHERE processed_at IS NULL AND attempts > 0`,
  );
  const outbox = await lag(
    db,
    sql`SELECT count(*) AS count, extract(epoch FROM now() - min(next_attempt_at)) AS oldest_age_seconds
        FROM outbox WHERE done_at IS NULL AND dead_at IS NULL AND next_attempt_at <= now()`,
  );
  const pending = await count(
    db,
    sql`SELECT count(*) AS count FROM outbox WHERE done_at IS NULL AND dead_at IS NULL`,
  );
  const deadLetters = await count(
    db,
    sql`SELECT count(*) AS count FROM outbox WHERE dead_at IS NOT NULL AND done_at IS NULL`,
  );
  const spend = rowsOf(
    await db.execute(sql`
      SELECT i.id AS installation_id, i.kill_switch,
             (i.spend_ceiling->>'usd')::float8 AS ceiling_usd,
             coalesce(sum((t.cost->>'usd')::float8), 0) AS usd,
             count(t.id) AS ticks
      FROM installations i
      LEFT JOIN goals g ON g.installation_id = i.id
      LEFT JOIN ticks t ON t.goal_id = g.id AND t.cost IS NOT NULL
      GROUP BY i.id ORDER BY i.id`),
  ).map((raw) => {
    const r = SpendRow.parse(raw);
    return {
      installationId: r.installation_id,
      usd: r.usd,
      ticks: r.ticks,
      ceilingUsd: r.ceiling_usd,
      killed: r.kill_switch,
    };
  });
  return { inbox: { ...inbox, failing }, outbox: { ...outbox, pending }, deadLetters, spend };
}

export interface InstallationControls {
  /** Installations whose goals are neither dispatched nor claimed. */
  killed: readonly number[];
  /** USD ceiling for every installation (null: none), and per-installation overrides. */
  spendCeilingUsd: number | null;
  spendCeilingUsdByInstallation: Readonly<Record<string, number>>;
}

/**
 * Writes the deployment's kill switch and USD spend ceilings onto every installation row
 * (other ceiling fields are kept). Idempotent; run at start-up and periodically, since a
 * goal can create its installation row at any time.
 */
export async function applyInstallationControls(
  db: Db,
  controls: InstallationControls,
): Promise<void> {
  const named = [
    ...controls.killed,
    ...Object.keys(controls.spendCeilingUsdByInstallation).map(Number),
  ];
  if (named.length > 0) {
    await db
      .insert(s.installations)
      .values([...new Set(named)].map((id) => ({ id })))
      .onConflictDoNothing();
  }
  const overrides = JSON.stringify(controls.spendCeilingUsdByInstallation);
  const killed = `{${controls.killed.join(",")}}`;
  // Only rows whose values change are written: this runs on every poll.
  await db.execute(sql`
    UPDATE installations i SET kill_switch = v.killed, spend_ceiling = v.ceiling, updated_at = now()
    FROM (
      SELECT id, (id = ANY(${killed}::bigint[])) AS killed,
        nullif(
          CASE WHEN coalesce((${overrides}::jsonb->>(id::text))::float8, ${controls.spendCeilingUsd}::float8) IS NULL
               THEN coalesce(spend_ceiling, '{}'::jsonb) - 'usd'
               ELSE coalesce(spend_ceiling, '{}'::jsonb) || jsonb_build_object('usd',
                      coalesce((${overrides}::jsonb->>(id::text))::float8, ${controls.spendCeilingUsd}::float8))
          END, '{}'::jsonb) AS ceiling
      FROM installations
    ) v
    WHERE v.id = i.id
      AND (i.kill_switch IS DISTINCT FROM v.killed OR i.spend_ceiling IS DISTINCT FROM v.ceiling)`);
}

export async function isInstallationKilled(db: Db, installationId: number): Promise<boolean> {
  const [row] = await db
    .select({ killed: s.installations.killSwitch })
    .from(s.installations)
    .where(eq(s.installations.id, installationId));
  return row?.killed ?? false;
}

/** Moves a row to later without counting an attempt (a budget or kill-switch deferral). */
export async function deferOutbox(db: Db, id: number, until: Date, why: string): Promise<void> {
  await db
    .update(s.outbox)
    .set({
      nextAttemptAt: until,
      leasedUntil: null,
      lastError: why.slice(0, 2000),
      updatedAt: sql`now()`,
    })
    .where(eq(s.outbox.id, id));
}

/** Makes a done row due again (e.g. the status comment, to show a new dead letter). */
export async function reviveOutbox(db: Db, id: number): Promise<void> {
  await db
    .update(s.outbox)
    .set({ doneAt: null, nextAttemptAt: dueUnlessLeased, updatedAt: sql`now()` })
    .where(and(eq(s.outbox.id, id), isNull(s.outbox.deadAt)));
}

/** Which of these delivery ids the inbox already holds (processed or still pending). */
export async function knownDeliveries(db: Db, deliveryIds: string[]): Promise<Set<string>> {
  if (deliveryIds.length === 0) return new Set();
  const rows = await db
    .select({ id: s.inbox.deliveryId })
    .from(s.inbox)
    .where(inArray(s.inbox.deliveryId, deliveryIds));
  return new Set(rows.map((r) => r.id));
}

export async function getCursor(db: Db, name: string): Promise<string | null> {
  const [row] = await db.select().from(s.cursors).where(eq(s.cursors.name, name));
  return row?.value ?? null;
}

export async function setCursor(db: Db, name: string, value: string): Promise<void> {
  await db
    .insert(s.cursors)
    .values({ name, value })
    .onConflictDoUpdate({ target: s.cursors.name, set: { value, updatedAt: sql`now()` } });
}
