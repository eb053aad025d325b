import { sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, rowsOf } from "./db.ts";

const NowRow = z.object({ now: z.coerce.date() });

/**
 * The database's clock. Leases are judged on it, never on a caller's clock; inside a
 * transaction `now()` is the transaction's start, so one transition sees one instant.
 */
export async function txNow(db: Db): Promise<Date> {
  const [row] = rowsOf(await db.execute(sql`SELECT now() AS now`));
  return NowRow.parse(row).now;
}
