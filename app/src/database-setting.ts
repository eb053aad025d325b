/**
 * Which store the App opens: a PostgreSQL server (DATABASE_URL) or embedded PGlite in a data
 * directory that must outlive the process (LOOPX_DATA_DIR; the demo has its own default).
 */
export type DatabaseVariable = "DATABASE_URL" | "LOOPX_DATA_DIR";

export type DatabaseSetting =
  | { kind: "postgres"; url: string }
  | { kind: "pglite"; dataDir: string };

/** The store to open, or null with the problem pushed onto `problems`. */
export function databaseSetting(
  raw: Partial<Record<DatabaseVariable, string>>,
  demo: boolean,
  problems: string[],
): DatabaseSetting | null {
  if (raw.DATABASE_URL) {
    if (/^postgres(ql)?:\/\//.test(raw.DATABASE_URL)) {
      return { kind: "postgres", url: raw.DATABASE_URL };
    }
    problems.push(
      "DATABASE_URL must be a postgres:// or postgresql:// URL (postgres://user:password@host:5432/database); unset it to use the embedded PGlite store with LOOPX_DATA_DIR",
    );
    return null;
  }
  if (raw.LOOPX_DATA_DIR) return { kind: "pglite", dataDir: raw.LOOPX_DATA_DIR };
  if (demo) return { kind: "pglite", dataDir: ".loopx/demo-db" };
  problems.push(
    "DATABASE_URL is not set, so LoopX would use the embedded PGlite store, which needs a persistent data directory: set LOOPX_DATA_DIR to a directory on a persistent volume (e.g. /var/lib/loopx), or set DATABASE_URL to a PostgreSQL server",
  );
  return null;
}
