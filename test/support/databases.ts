/** Per-file databases on the real server, and one PGlite per test worker. */
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { openStore, type Store } from "@loopx/store";
import { dbOf, sql } from "@loopx/store/testing";
import postgres from "postgres";
import { describe, inject } from "vitest";

/**
 * A database of its own on the shared server, so test files running in parallel workers
 * never truncate each other's rows.
 */
export async function freshDatabase(
  serverUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `loopx_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const again = postgres(serverUrl, { max: 1, onnotice: () => {} });
      try {
        await again.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await again.end();
      }
    },
  };
}

/**
 * A store on a database of its own on the real server (vitest's global setup provides the
 * server's URL), or null where there is none: the scenario then runs on the shared PGlite,
 * and the global setup has said why the real server is missing.
 */
export async function postgresStore(
  serverUrl: string | undefined,
): Promise<{ store: Store; close(): Promise<void> } | null> {
  if (!serverUrl) return null;
  const db = await freshDatabase(serverUrl);
  const store = await openStore({ databaseUrl: db.url });
  return {
    store,
    close: async () => {
      await store.close();
      await db.drop();
    },
  };
}

/** Opens the store a suite runs on, and what to do once it is closed. */
export type OpenStore = () => Promise<{ store: Store; done: () => Promise<void> }>;

/**
 * Declares a store suite twice: on the worker's shared PGlite, and on a database of its own
 * on the real server (skipped, saying why, where vitest's global setup found none).
 */
export function onEveryDriver(suite: (name: string, open: OpenStore) => void): void {
  suite("PGlite", async () => ({
    store: await openStore({ pglite: await sharedPglite() }),
    done: async () => {},
  }));
  const serverUrl = inject("pgUrl");
  describe.skipIf(!serverUrl)(
    `real PostgreSQL${serverUrl ? "" : ` (skipped: ${inject("pgSkipReason")})`}`,
    () => {
      suite("PostgreSQL", async () => {
        if (!serverUrl) throw new Error("unreachable: skipped without a server");
        const db = await freshDatabase(serverUrl);
        return { store: await openStore({ databaseUrl: db.url }), done: db.drop };
      });
    },
  );
}

const KEY = Symbol.for("loopx.test.pglite");
type WithPglite = typeof globalThis & { [KEY]?: Promise<PGlite> };

/** PGlite costs ~2 s and ~800 MB per instance: one per worker, reset by truncation. */
export function sharedPglite(): Promise<PGlite> {
  const g: WithPglite = globalThis;
  g[KEY] ??= PGlite.create("memory://");
  return g[KEY];
}

const TABLES = [
  "used_tokens",
  "ended_sessions",
  "tick_dispatches",
  "content_budget",
  "cursors",
  "projections",
  "outbox",
  "events",
  "inbox",
  "pull_requests",
  "notes",
  "handoffs",
  "evidence",
  "ticks",
  "gates",
  "todos",
  "goals",
  "installations",
];

export async function truncateAll(store: Store): Promise<void> {
  await dbOf(store).execute(sql.raw(`TRUNCATE ${TABLES.join(", ")} RESTART IDENTITY CASCADE`));
}

export interface RacingSessions {
  /** A pooled store for setup and assertions. */
  admin: Store;
  /** One single-connection store each: separate server sessions that truly race. */
  sessions: Store[];
  close(): Promise<void>;
}

/** A fresh, migrated database on the real server and `count` separate sessions on it. */
export async function racingSessions(serverUrl: string, count: number): Promise<RacingSessions> {
  const db = await freshDatabase(serverUrl);
  const admin = await openStore({ databaseUrl: db.url });
  await admin.migrate();
  const sessions = await Promise.all(
    Array.from({ length: count }, () => openStore({ databaseUrl: db.url, maxConnections: 1 })),
  );
  return {
    admin,
    sessions,
    async close() {
      await Promise.all(sessions.map((s) => s.close()));
      await admin.close();
      await db.drop();
    },
  };
}
