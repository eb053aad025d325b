/**
 * The drizzle handle behind a store, kept off the port: only the testing entry hands it out,
 * so production code cannot grow queries outside this package.
 */
import type { Db } from "./db.ts";
import type { Store } from "./port.ts";

const handles = new WeakMap<Store, Db>();

export function keepHandle(store: Store, db: Db): Store {
  handles.set(store, db);
  return store;
}

/** The drizzle handle of a store this package opened: tests seed and inspect rows with it. */
export function dbOf(store: Store): Db {
  const db = handles.get(store);
  if (!db)
    throw new Error(
      "dbOf: this store was not opened by @loopx/store (openStore/createStore): pass the store itself, not a copy or a stand-in.",
    );
  return db;
}
