/**
 * A database whose `now()` can be moved forward: a `simclock.now()` that adds a shift to the
 * real one, found before pg_catalog's on the database's search_path. Everything LoopX judges
 * on the database clock (leases, backoff windows, due wakes, retries, column defaults) then
 * sees simulated time; a month passes in a few seconds. Real PostgreSQL only.
 */
import postgres from "postgres";

export interface SimClock {
  /** Moves the database clock forward by `ms`. */
  advance(ms: number): Promise<void>;
  /** How far it has been moved, in ms. */
  shifted(): number;
  close(): Promise<void>;
}

/** The shift table and `simclock.now()`; a search_path naming simclock before pg_catalog uses it. */
export const SIM_CLOCK_SQL = `
  CREATE SCHEMA simclock;
  CREATE TABLE simclock.shift (ms bigint NOT NULL);
  INSERT INTO simclock.shift VALUES (0);
  CREATE FUNCTION simclock.now() RETURNS timestamptz LANGUAGE sql STABLE AS
    $$ SELECT pg_catalog.now() + (SELECT ms FROM simclock.shift) * interval '1 millisecond' $$;
`;

export async function installSimClock(databaseUrl: string): Promise<SimClock> {
  const sqlc = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const name = new URL(databaseUrl).pathname.slice(1);
  await sqlc.unsafe(
    `${SIM_CLOCK_SQL}\n  ALTER DATABASE "${name}" SET search_path = public, simclock, pg_catalog;`,
  );
  let total = 0;
  return {
    async advance(ms) {
      total += ms;
      await sqlc`UPDATE simclock.shift SET ms = ${total}`;
    },
    shifted: () => total,
    close: () => sqlc.end(),
  };
}
