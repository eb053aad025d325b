import { z } from "zod";

/** Set once GitHub refused LoopX a check run on this goal's repository; it says when. */
export const UNAVAILABLE = "check:unavailable" as const;

/**
 * GitHub's installation tokens live one hour, and the App keeps one until then: a token
 * minted before an owner accepted `checks: write` is refused again, one minted later is not.
 */
export const RETRY_CHECKS_AFTER_MS = 60 * 60_000;

/**
 * What the marker holds: when GitHub last refused, and whether the installation accepted new
 * permissions since (then the next write tries at once). A marker written before it said when
 * (a bare message) counts as refused long ago.
 */
const Refusal = z.object({
  refusedAt: z.string().datetime(),
  accepted: z.boolean().default(false),
  message: z.string().default(""),
});
export type Refusal = z.infer<typeof Refusal>;

function readRefusal(wroteBody: string | null): Refusal {
  try {
    const parsed = Refusal.safeParse(JSON.parse(wroteBody ?? ""));
    if (parsed.success) return parsed.data;
  } catch {}
  return { refusedAt: new Date(0).toISOString(), accepted: false, message: wroteBody ?? "" };
}

/** The marker as the App writes it when an installation accepts new permissions. */
export function acceptedMarker(wroteBody: string | null): string {
  return JSON.stringify({ ...readRefusal(wroteBody), accepted: true });
}

/** Whether a check-run write may ask GitHub again now. */
export function mayRetry(wroteBody: string | null, now: Date): boolean {
  const r = readRefusal(wroteBody);
  return r.accepted || now.getTime() - Date.parse(r.refusedAt) >= RETRY_CHECKS_AFTER_MS;
}
