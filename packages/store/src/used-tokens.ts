/** One use per OIDC token (`jti`), shared by every replica through the database. */
import { eq, lt, sql } from "drizzle-orm";
import type { Db } from "./db.ts";
import * as s from "./schema/index.ts";

export interface TokenUse {
  jti: string;
  repoId: number;
  runId: number;
  /** The token's own `exp`: the row is kept at least until then. */
  expiresAt: Date;
}

/**
 * Records a token as used. Returns false when it was used before (a replay): the primary
 * key decides, so two replicas racing on one token cannot both accept it.
 */
export async function useToken(db: Db, use: TokenUse): Promise<boolean> {
  const rows = await db
    .insert(s.usedTokens)
    .values(use)
    .onConflictDoNothing({ target: s.usedTokens.jti })
    .returning({ jti: s.usedTokens.jti });
  return rows.length === 1;
}

/** Whether any token of this workflow run reached the tick API (while its rows are kept). */
export async function runReachedApi(db: Db, runId: number): Promise<boolean> {
  const [row] = await db
    .select({ jti: s.usedTokens.jti })
    .from(s.usedTokens)
    .where(eq(s.usedTokens.runId, runId))
    .limit(1);
  return row !== undefined;
}

/** Forgets tokens that expired more than `retentionMs` ago (database clock). */
export async function pruneUsedTokens(db: Db, retentionMs: number): Promise<number> {
  const cutoff = sql`now() - make_interval(secs => ${retentionMs / 1000})`;
  const rows = await db
    .delete(s.usedTokens)
    .where(lt(s.usedTokens.expiresAt, cutoff))
    .returning({ jti: s.usedTokens.jti });
  return rows.length;
}
