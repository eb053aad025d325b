/**
 * Vitest globalSetup: gives the store suites a real PostgreSQL when one can be had.
 *   DATABASE_URL_TEST / TEST_DATABASE_URL set → use that server (tests create their own databases in it);
 *   else PostgreSQL binaries found (PG_BIN, /usr/lib/postgresql/<major>/bin) → a throwaway cluster;
 *   else → pgUrl is undefined and the real-server tests skip, saying why.
 */
import type { TestProject } from "vitest/node";
import { findPgBin, NO_BINARIES_MESSAGE, type PgServer, startPostgres } from "./postgres-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A PostgreSQL URL whose server lets tests CREATE DATABASE; undefined: PGlite only. */
    pgUrl: string | undefined;
    /** Why the real-server suite is skipped, when it is. */
    pgSkipReason: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.DATABASE_URL_TEST ?? process.env.TEST_DATABASE_URL;
  if (external) {
    project.provide("pgUrl", external);
    project.provide("pgSkipReason", "");
    return async () => {};
  }
  if (!findPgBin()) {
    console.warn(NO_BINARIES_MESSAGE);
    project.provide("pgUrl", undefined);
    project.provide("pgSkipReason", NO_BINARIES_MESSAGE);
    return async () => {};
  }
  const started = Date.now();
  const server: PgServer = await startPostgres();
  console.log(`throwaway PostgreSQL on port ${server.port} (${Date.now() - started} ms)`);
  project.provide("pgUrl", server.url);
  project.provide("pgSkipReason", "");
  return () => server.stop();
}
