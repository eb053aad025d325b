/**
 * A PGlite that counts the goal aggregates it returns: each statement carrying the
 * aggregate's `todos` column that came back with a row, inside transactions too. Lock-only
 * and goal-row reads are not counted, and neither is an aggregate statement that matched
 * nothing (the store's reuse of a state the request already holds).
 */
import type { PGlite } from "@electric-sql/pglite";

const AGGREGATE = /\) AS todos,/;

export function meteredPglite(pglite: PGlite, seen: { loads: number }): PGlite {
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, prop) {
        const value: unknown = Reflect.get(t, prop, t);
        if (typeof value !== "function") return value;
        if (prop === "query") {
          return async (text: string, ...rest: unknown[]) => {
            const result: unknown = await Reflect.apply(value, t, [text, ...rest]);
            const rows: unknown =
              result && typeof result === "object" ? Reflect.get(result, "rows") : null;
            if (AGGREGATE.test(text) && Array.isArray(rows) && rows.length > 0) seen.loads++;
            return result;
          };
        }
        if (prop === "transaction") {
          return (body: (tx: object) => Promise<unknown>) =>
            Reflect.apply(value, t, [(tx: object) => body(wrap(tx))]);
        }
        return value.bind(t);
      },
    });
  return wrap(pglite);
}
