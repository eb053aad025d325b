import type { Handler, Routes } from "../webhooks/on.ts";

/**
 * Joins the webhook families' routes into one table. A key claimed by two families is a
 * programming error caught at start-up: with object spread the later family would win
 * silently and the other's handler would never run.
 */
export function routeTable(families: Readonly<Record<string, Routes>>): Routes {
  const table: Record<string, Handler> = {};
  const owner = new Map<string, string>();
  for (const [family, routes] of Object.entries(families)) {
    for (const [key, handler] of Object.entries(routes)) {
      const first = owner.get(key);
      if (first !== undefined) {
        throw new Error(
          `webhook route ${key} is claimed by both ${first} and ${family}: give it to one family (compose the handlers there)`,
        );
      }
      owner.set(key, family);
      table[key] = handler;
    }
  }
  return table;
}
