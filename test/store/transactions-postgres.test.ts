/**
 * Transactions on PostgreSQL send BEGIN with their first statements (db.ts beginPipelined).
 * What must still hold: a body that fails leaves nothing behind, a statement that failed
 * rolls the transaction back even when the body handled its error (COMMIT answers ROLLBACK
 * then, and the caller must hear it), a nested transaction is a savepoint, and BEGIN costs
 * no round trip of its own.
 */
import net from "node:net";
import { openStore, type Store } from "@loopx/store";
import { dbOf, rowsOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freshDatabase } from "../support/databases.ts";

const serverUrl = inject("pgUrl");

describe.skipIf(!serverUrl)(
  `transactions on PostgreSQL${serverUrl ? "" : ` (skipped: ${inject("pgSkipReason")})`}`,
  () => {
    let store: Store;
    let drop: () => Promise<void> = async () => {};
    let port = 0;
    beforeAll(async () => {
      if (!serverUrl) throw new Error("unreachable: skipped without a server");
      const db = await freshDatabase(serverUrl);
      drop = db.drop;
      port = Number(new URL(db.url).port);
      store = await openStore({ databaseUrl: db.url, maxConnections: 2 });
      await store.migrate();
    });
    afterAll(async () => {
      await store.close();
      await drop();
    });

    const installed = async (id: number) =>
      rowsOf(await dbOf(store).execute(sql`SELECT id FROM installations WHERE id = ${id}`)).length;

    it("a body that throws leaves nothing it wrote", async () => {
      const run = dbOf(store).transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO installations (id) VALUES (7001)`);
        throw new Error("the body gave up");
      });
      await expect(run).rejects.toThrow("the body gave up");
      expect(await installed(7001)).toBe(0);
    });

    it("a failed statement whose error the body handled still rolls back, and says so", async () => {
      const run = dbOf(store).transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO installations (id) VALUES (7002)`);
        await tx.execute(sql`SELECT 1 / 0`).catch(() => null);
        return "looked fine";
      });
      await expect(run).rejects.toThrow(/rolled back at COMMIT \(ROLLBACK\)/);
      expect(await installed(7002)).toBe(0);
      // The connection is usable afterwards: the next transaction commits.
      await dbOf(store).transaction((tx) =>
        tx.execute(sql`INSERT INTO installations (id) VALUES (7003)`),
      );
      expect(await installed(7003)).toBe(1);
    });

    it("a transaction nested in one is a savepoint: its failure undoes only its own writes", async () => {
      await dbOf(store).transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO installations (id) VALUES (7005)`);
        const nested = tx.transaction(async (inner) => {
          await inner.execute(sql`INSERT INTO installations (id) VALUES (7006)`);
          throw new Error("the nested part gave up");
        });
        await expect(nested).rejects.toThrow("the nested part gave up");
        await tx.transaction((inner) =>
          inner.execute(sql`INSERT INTO installations (id) VALUES (7007)`),
        );
      });
      expect([await installed(7005), await installed(7006), await installed(7007)]).toEqual([
        1, 0, 1,
      ]);
    });

    it("BEGIN goes out with the first statement: one write for both, one for COMMIT", async () => {
      const once = () =>
        dbOf(store).transaction((tx) =>
          tx.execute(sql`INSERT INTO installations (id) VALUES (7004) ON CONFLICT DO NOTHING`),
        );
      // The statement's first use prepares it (a round trip of its own), on each connection.
      for (let i = 0; i < 4; i++) await once();
      const write = net.Socket.prototype.write;
      let writes = 0;
      net.Socket.prototype.write = function (this: net.Socket, ...args: unknown[]) {
        if (this.remotePort === port) writes++;
        return Reflect.apply(write, this, args);
      };
      try {
        await once();
      } finally {
        net.Socket.prototype.write = write;
      }
      expect(writes).toBe(2);
    });
  },
);
