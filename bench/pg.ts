/**
 * The real PostgreSQL the bench needs: BENCH_DATABASE_URL or DATABASE_URL (a role that may
 * CREATE DATABASE), else a throwaway server (test/support/postgres-server.ts). Every figure
 * gets a fresh database of its own, so none measures another's leftovers.
 */
import postgres from "postgres";
import { findPgBin, startPostgres } from "../test/support/postgres-server.ts";

export interface BenchPostgres {
  /** Where it came from, for the table. */
  source: string;
  freshDatabase(label: string): Promise<string>;
  stop(): Promise<void>;
}

export async function benchPostgres(): Promise<BenchPostgres | null> {
  const given = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!given && !findPgBin()) return null;
  const server = given ? null : await startPostgres({ database: "loopx_bench" });
  const base = given ?? server?.url ?? "";
  let n = 0;
  const made: string[] = [];
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  const version = await admin.unsafe("SHOW server_version");
  const at = (name: string) => {
    const u = new URL(base);
    u.pathname = `/${name}`;
    return u.toString();
  };
  return {
    source: `PostgreSQL ${String(version[0]?.server_version ?? "?").split(" ")[0]}${given ? " (given URL)" : " (throwaway, fsync off)"}`,
    async freshDatabase(label) {
      const name = `loopx_bench_${label.toLowerCase().replace(/\W/g, "_")}_${process.pid}_${n++}`;
      await admin.unsafe(`CREATE DATABASE ${name}`);
      made.push(name);
      return at(name);
    },
    async stop() {
      for (const name of made)
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await admin.end({ timeout: 5 });
      await server?.stop();
    },
  };
}
