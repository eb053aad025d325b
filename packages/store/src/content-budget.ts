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

/**
 * Replies to people without write access: a lane of their own, carved out of GitHub's limits
 * (a ceiling per installation, a few per person per repository), never LoopX's own budget.
 */
export interface OutsiderLimits extends ContentLimits {
  perPersonPerHour: number;
}
export const OUTSIDER_REPLY_LIMITS: OutsiderLimits = {
  perMinute: 10,
  perHour: 50,
  perPersonPerHour: 3,
};

/** What LoopX's own writes (gate, status, tick comments) may use: GitHub's less the outsiders'. */
export const LOOPX_CONTENT_LIMITS: ContentLimits = {
  perMinute: GITHUB_CONTENT_LIMITS.perMinute - OUTSIDER_REPLY_LIMITS.perMinute,
  perHour: GITHUB_CONTENT_LIMITS.perHour - OUTSIDER_REPLY_LIMITS.perHour,
};

/** Which budget a request is taken from; an outsider's reply names who it answers. */
export type ContentLane =
  | { kind: "loopx"; limits?: ContentLimits }
  | { kind: "outsider"; subject: string; limits?: OutsiderLimits };

export type Reservation = { ok: true } | { ok: false; retryAt: Date };

const Window = z.object({
  now: z.coerce.date(),
  last_minute: z.coerce.number(),
  last_hour: z.coerce.number(),
  subject_hour: z.coerce.number(),
  minute_frees_at: z.coerce.date().nullable(),
  hour_frees_at: z.coerce.date().nullable(),
  subject_frees_at: z.coerce.date().nullable(),
});

/**
 * Takes one content-creating request from the installation's budget in `lane`, or says
 * when one frees up. The installation row is locked for the check-and-insert, so replicas
 * sharing the database never overspend together.
 */
export async function reserveContent(
  db: Db,
  installationId: number,
  lane: ContentLane = { kind: "loopx" },
): Promise<Reservation> {
  const outsider = lane.kind === "outsider" ? (lane.limits ?? OUTSIDER_REPLY_LIMITS) : null;
  const limits = outsider ?? (lane.kind === "loopx" ? (lane.limits ?? LOOPX_CONTENT_LIMITS) : null);
  if (limits === null) throw new Error("unreachable: a content lane without limits");
  const subject = lane.kind === "outsider" ? lane.subject : null;
  // Only outsiders have a per-person cap.
  const perSubject = outsider?.perPersonPerHour ?? null;
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
    const mine = sql`installation_id = ${installationId} AND lane = ${lane.kind}`;
    const [row] = rowsOf(
      await tx.execute(sql`
        SELECT now() AS now,
          count(*) FILTER (WHERE at > now() - interval '1 minute') AS last_minute,
          count(*) AS last_hour,
          count(*) FILTER (WHERE subject = ${subject}) AS subject_hour,
          (SELECT at FROM content_budget WHERE ${mine} AND at > now() - interval '1 minute'
             ORDER BY at DESC OFFSET ${limits.perMinute - 1} LIMIT 1) + interval '1 minute' AS minute_frees_at,
          (SELECT at FROM content_budget WHERE ${mine}
             ORDER BY at DESC OFFSET ${limits.perHour - 1} LIMIT 1) + interval '1 hour' AS hour_frees_at,
          (SELECT at FROM content_budget WHERE ${mine} AND subject = ${subject}
             ORDER BY at DESC OFFSET ${(perSubject ?? 1) - 1} LIMIT 1) + interval '1 hour' AS subject_frees_at
        FROM content_budget WHERE ${mine}`),
    );
    const w = Window.parse(row);
    if (
      w.last_minute >= limits.perMinute ||
      w.last_hour >= limits.perHour ||
      (perSubject !== null && w.subject_hour >= perSubject)
    ) {
      const candidates = [w.minute_frees_at, w.hour_frees_at, w.subject_frees_at].filter(
        (d): d is Date => d !== null && d > w.now,
      );
      const retryAt = new Date(Math.max(w.now.getTime() + 1000, ...candidates.map(Number)));
      return { ok: false as const, retryAt };
    }
    await tx.insert(s.contentBudget).values({ installationId, lane: lane.kind, subject });
    return { ok: true as const };
  });
}
