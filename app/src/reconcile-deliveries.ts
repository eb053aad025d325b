/**
 * GitHub never redelivers a failed webhook by itself. The reconciler lists the app's
 * deliveries (`GET /app/hook/deliveries`, app JWT), and records each failed one the inbox
 * has never seen straight from its stored request (`GET /app/hook/deliveries/{id}`) — no
 * round trip through our own endpoint. The inbox dedups by delivery id, so duplicates and
 * reordering are harmless. A cursor (the newest settled delivery id) bounds each scan.
 */
import type { DeliveryInput, OpsStore } from "@loopx/store";
import type { ProbotOctokit } from "probot";
import { z } from "zod";
import type { Logger } from "./deps.ts";

type Octokit = InstanceType<typeof ProbotOctokit>;

export const RECONCILER_CURSOR = "webhook-deliveries";

const DeliveryItem = z.object({
  id: z.number(),
  guid: z.string(),
  status: z.string(),
  status_code: z.number(),
  event: z.string(),
  action: z.string().nullable().optional(),
  installation_id: z.number().nullable().optional(),
});
type DeliveryItem = z.infer<typeof DeliveryItem>;

const DeliveryDetail = DeliveryItem.extend({
  request: z.object({ payload: z.record(z.string(), z.unknown()).nullable() }),
});

export interface ReconcileResult {
  scanned: number;
  failed: number;
  recorded: number;
  cursor: number | null;
}

export interface ReconcileDeps {
  /** Authenticated as the app (JWT), not as an installation. */
  appOctokit: () => Promise<Octokit>;
  ops: OpsStore;
  recordDelivery: (d: DeliveryInput) => Promise<{ inserted: boolean }>;
  log: Logger;
  /** Pages of 100 read at most per scan (the first scan has no cursor to stop at). */
  maxPages?: number;
}

const pending = (d: DeliveryItem) => d.status.toLowerCase() === "pending";
const succeeded = (d: DeliveryItem) => d.status_code >= 200 && d.status_code < 300;

function nextCursor(link: unknown): string | null {
  if (typeof link !== "string") return null;
  const next = link.split(",").find((part) => /rel="next"/.test(part));
  const m = next ? /[?&]cursor=([^&>]+)/.exec(next) : null;
  return m?.[1] ? decodeURIComponent(m[1]) : null;
}

/** One scan: newest first, down to the cursor. */
export async function reconcileDeliveries(deps: ReconcileDeps): Promise<ReconcileResult> {
  const octokit = await deps.appOctokit();
  const stored = await deps.ops.getCursor(RECONCILER_CURSOR);
  const since = stored === null ? null : Number(stored);
  const seen: DeliveryItem[] = [];
  let page: string | null = null;
  for (let i = 0; i < (deps.maxPages ?? 10); i++) {
    const response = await octokit.request("GET /app/hook/deliveries", {
      per_page: 100,
      ...(page ? { cursor: page } : {}),
    });
    const items = z.array(DeliveryItem).parse(response.data);
    const fresh = items.filter((d) => since === null || d.id > since);
    seen.push(...fresh);
    page = nextCursor(response.headers.link);
    if (!page || fresh.length < items.length) break;
  }

  // A guid is fine if any attempt of it succeeded; attempts older than the cursor were
  // judged in an earlier scan.
  const byGuid = new Map<string, DeliveryItem[]>();
  for (const d of seen) byGuid.set(d.guid, [...(byGuid.get(d.guid) ?? []), d]);
  const failed = [...byGuid.values()]
    .filter((attempts) => !attempts.some((d) => succeeded(d) || pending(d)))
    .map((attempts) => attempts[0])
    .filter((d): d is DeliveryItem => d !== undefined);
  const known = await deps.ops.knownDeliveries(failed.map((d) => d.guid));

  let recorded = 0;
  for (const d of failed) {
    if (known.has(d.guid)) continue;
    const { data } = await octokit.request("GET /app/hook/deliveries/{delivery_id}", {
      delivery_id: d.id,
    });
    const detail = DeliveryDetail.parse(data);
    const payload = detail.request.payload;
    if (!payload) continue;
    const action = typeof payload.action === "string" ? payload.action : (d.action ?? null);
    const { inserted } = await deps.recordDelivery({
      deliveryId: d.guid,
      event: d.event,
      action,
      installationId: d.installation_id ?? null,
      payload,
    });
    if (inserted) {
      recorded++;
      deps.log.info(`reconciler: recorded missed delivery ${d.guid} (${d.event}.${action ?? ""})`);
    }
  }

  // Advance past everything settled; an attempt still in flight is looked at again next time.
  const oldestPending = Math.min(...seen.filter(pending).map((d) => d.id));
  const newest = Math.max(since ?? 0, ...seen.map((d) => d.id));
  const cursor = Number.isFinite(oldestPending) ? Math.min(newest, oldestPending - 1) : newest;
  if (cursor > (since ?? 0)) await deps.ops.setCursor(RECONCILER_CURSOR, String(cursor));
  return { scanned: seen.length, failed: failed.length, recorded, cursor: cursor || since };
}
