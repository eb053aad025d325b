/** The per-installation content-creation budget (GitHub's secondary limits), in PostgreSQL. */
import { and, eq, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, rowsOf } from "./db.ts";
import * as s from "./schema/index.ts";

export interface ContentLimits {
  perMinute: number;
  perHour: number;
}

/** GitHub's documented secondary limits for content-creating requests. */
export const GITHUB_CONTENT_LIMITS: ContentLimits = { perMinute: 80, perHour: 500 };

export type Reservation = { ok: true } | { ok: false; retryAt: Date };

const Window = z.object({
  now: z.coerce.date(),
  last_minute: z.coerce.number(),
  last_hour: z.coerce.number(),
  minute_frees_at: z.coerce.date().nullable(),
  hour_frees_at: z.coerce.date().nullable(),
});

/**
 * Takes one content-creating request from the installation's budget, or says when one
 * frees up. The installation row is locked for the check-and-insert, so replicas sharing
 * the database never overspend together.
 */
export async function reserveContent(
  db: Db,
  installationId: number,
  limits: ContentLimits = GITHUB_CONTENT_LIMITS,
): Promise<Reservation> {
  return db.transaction(async (tx) => {
    await tx.insert(s.installations).values({ id: installationId }).onConflictDoNothing();
    await tx
      .select({ id: s.installations.id })
      .from(s.installations)
      .where(eq(s.installations.id, installationId))
      .for("update");
    await tx
      .delete(s.contentBudget)
      .where(
        and(
          eq(s.contentBudget.installationId, installationId),
          lt(s.contentBudget.at, sql`now() - interval '1 hour'`),
        ),
      );
    // The k-th newest request leaves the window first once the window is full.
    const [row] = rowsOf(
      await tx.execute(sql`
        SELECT now() AS now,
          count(*) FILTER (WHERE at > now() - interval '1 minute') AS last_minute,
          count(*) AS last_hour,
          (SELECT at FROM content_budget WHERE installation_id = ${installationId}
             AND at > now() - interval '1 minute'
             ORDER BY at DESC OFFSET ${limits.perMinute - 1} LIMIT 1) + interval '1 minute' AS minute_frees_at,
          (SELECT at FROM content_budget WHERE installation_id = ${installationId}
             ORDER BY at DESC OFFSET ${limits.perHour - 1} LIMIT 1) + interval '1 hour' AS hour_frees_at
        FROM content_budget WHERE installation_id = ${installationId}`),
    );
    const w = Window.parse(row);
    if (w.last_minute >= limits.perMinute || w.last_hour >= limits.perHour) {
      const candidates = [w.minute_frees_at, w.hour_frees_at].filter(
        (d): d is Date => d !== null && d > w.now,
      );
      const retryAt = new Date(Math.max(w.now.getTime() + 1000, ...candidates.map(Number)));
      return { ok: false as const, retryAt };
    }
    await tx.insert(s.contentBudget).values({ installationId });
    return { ok: true as const };
  });
}
