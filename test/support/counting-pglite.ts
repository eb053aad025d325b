/**
 * The store port with a meter on it: the worker's shared PGlite behind a proxy that counts
 * every statement and transaction sent to it, so a test can say "this call cost the database
 * nothing" instead of inferring it from timings or rows.
 */
import { openStore, type Store } from "@loopx/store";
import { sharedPglite } from "./databases.ts";

const COUNTED = new Set<PropertyKey>(["query", "exec", "transaction", "sql"]);

export interface CountedStore {
  store: Store;
  /** Statements and transactions sent since the last reset. */
  count(): number;
  reset(): void;
}

export async function countingStore(): Promise<CountedStore> {
  const pglite = await sharedPglite();
  let calls = 0;
  const counted = new Proxy(pglite, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (!COUNTED.has(prop)) return value.bind(target);
      return (...args: unknown[]) => {
        calls += 1;
        return Reflect.apply(value, target, args);
      };
    },
  });
  return {
    store: await openStore({ pglite: counted }),
    count: () => calls,
    reset: () => {
      calls = 0;
    },
  };
}
