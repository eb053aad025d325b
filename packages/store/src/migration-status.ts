/**
 * How far a database is migrated, for `loopx doctor`: the migrations shipped with this code
 * (drizzle's journal) against those recorded as applied in the database. Read-only.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, MIGRATIONS_DIR, rowsOf } from "./db.ts";

const Journal = z.object({ entries: z.array(z.object({ tag: z.string() })) });
const Count = z.object({ n: z.coerce.number() });

export interface MigrationStatus {
  /** Migrations this code ships. */
  known: number;
  /** Migrations the database has applied (0 when it was never migrated). */
  applied: number;
}

export async function migrationStatus(db: Db): Promise<MigrationStatus> {
  const journal = Journal.parse(
    JSON.parse(readFileSync(join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")),
  );
  // drizzle's migrator records applied migrations in drizzle.__drizzle_migrations.
  const [exists] = rowsOf(
    await db.execute(sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS n`),
  );
  const present = z.object({ n: z.boolean() }).parse(exists).n;
  if (!present) return { known: journal.entries.length, applied: 0 };
  const [row] = rowsOf(
    await db.execute(sql`SELECT count(*) AS n FROM drizzle.__drizzle_migrations`),
  );
  return { known: journal.entries.length, applied: Count.parse(row).n };
}
