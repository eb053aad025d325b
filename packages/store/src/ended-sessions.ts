/** Signed-out dashboard sessions, shared by every replica through the database. */
import { eq, lt, sql } from "drizzle-orm";
import type { Db } from "./db.ts";
import * as s from "./schema/index.ts";

export interface EndedSessions {
  /** Records a signed-out session until `expiresAt` (its cookie's own end). */
  end(id: string, expiresAt: Date): Promise<void>;
  /** Whether the session was signed out. */
  ended(id: string): Promise<boolean>;
}

export function endedSessions(db: Db): EndedSessions {
  return {
    async end(id, expiresAt) {
      await db.delete(s.endedSessions).where(lt(s.endedSessions.expiresAt, sql`now()`));
      await db.insert(s.endedSessions).values({ id, expiresAt }).onConflictDoNothing();
    },
    async ended(id) {
      const [row] = await db
        .select({ id: s.endedSessions.id })
        .from(s.endedSessions)
        .where(eq(s.endedSessions.id, id))
        .limit(1);
      return row !== undefined;
    },
  };
}
