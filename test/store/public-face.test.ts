/**
 * The store's public face hands out no database handle: callers get the port's named methods,
 * and only the testing entry reaches the drizzle handle and the tables.
 */
import * as publicFace from "@loopx/store";
import { openStore, type Store } from "@loopx/store";
import { dbOf, sql, tables } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedPglite } from "../support/databases.ts";

describe("the store's public face", () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ pglite: await sharedPglite() });
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
  });

  it("exports no tables and no function over a raw handle: only the two ways to open a store", () => {
    expect("tables" in publicFace).toBe(false);
    const functions = Object.entries(publicFace).filter(([, v]) => typeof v === "function");
    expect(functions.map(([name]) => name).sort()).toEqual(["createStore", "openStore"]);
  });

  it("an opened store carries no db property; the testing entry finds its handle", async () => {
    expect("db" in store).toBe(false);
    expect(Object.values(store).some((v) => v === dbOf(store))).toBe(false);
    const rows = await dbOf(store).select({ n: sql<number>`count(*)::int` }).from(tables.goals);
    expect(rows).toHaveLength(1);
  });

  it("dbOf refuses an object the store package did not open, saying what would work", () => {
    const lookalike = { ...store };
    expect(() => dbOf(lookalike)).toThrow(/not opened by @loopx\/store \(openStore\/createStore\)/);
  });
});
