/**
 * For tests and benchmarks only: the raw drizzle handle behind a store and the tables, to
 * seed rows, move clocks and inspect what a transition wrote. Production code uses the port.
 */

/** Query-building helpers for raw test statements, so nothing outside the store imports drizzle. */
export { and, asc, eq, isNull, sql } from "drizzle-orm";
export { type Db, rowsOf } from "./db.ts";
/** The due sweep over a raw handle: the bench runs it inside a transaction it rolls back. */
export { dueCandidatesQuery, takeDueDispatches } from "./due-dispatches.ts";
/** The per-event lookups whose plans the growth bench shows. */
export { subIssueLookup } from "./find-by-sub-issue.ts";
/** The inbox batch statement, for the bench's EXPLAIN. */
export { pendingQuery } from "./inbox.ts";
export { notesLookup } from "./load-window.ts";
export { commentLookup } from "./pull-links.ts";
/** `keepHandle`: a test's stand-in wrapping a store (a counting proxy) keeps its raw handle. */
export { dbOf, keepHandle } from "./raw-handle.ts";
export * as tables from "./schema/index.ts";
