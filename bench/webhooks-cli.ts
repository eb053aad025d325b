/**
 * `npm run bench:webhooks` (bench/webhooks.ts says what is measured): the label bench on
 * PGlite and PostgreSQL with the inbox backlog, then the mix and each of its kinds alone.
 * BENCH_WEBHOOKS=mix runs the mix and its kinds alone.
 */
import { openStore } from "@loopx/store";
import { benchPostgres } from "./pg.ts";
import { benchKindsAlone, benchWebhooks, IN_FLIGHT, type WebhookFigures } from "./webhooks.ts";

/** `rate`: the events/s target, when the figures have targets (the mix's is higher). */
function print(label: string, f: WebhookFigures, rate?: string): void {
  const t = (s: string) => (rate ? `   target ${s}` : "");
  console.log(`${label}: webhook → committed transition p50 ${f.p50Ms.toFixed(1)} ms`);
  console.log(
    `${label}: webhook → committed transition p99 ${f.p99Ms.toFixed(1)} ms${t("< 20 ms")}`,
  );
  console.log(
    `${label}: events/s (${IN_FLIGHT} in flight), median of ${f.bursts.map((b) => b.toFixed(0)).join(", ")} after a warm-up burst at ${f.coldEventsPerSec.toFixed(0)}: ${f.eventsPerSec.toFixed(0)}${t(rate ?? "")}`,
  );
}

const mixOnly = process.env.BENCH_WEBHOOKS === "mix";
if (!mixOnly) {
  const pglite = await openStore({ dataDir: "memory://" });
  try {
    print("PGlite", await benchWebhooks(pglite));
  } finally {
    await pglite.close();
  }
}
const pg = await benchPostgres();
if (!pg) {
  console.log("PostgreSQL: skipped (no binaries; set BENCH_DATABASE_URL or install postgresql)");
} else {
  const open = async (label: string) =>
    openStore({ databaseUrl: await pg.freshDatabase(label), maxConnections: 16 });
  try {
    if (!mixOnly) {
      const store = await open("webhooks");
      try {
        print("PostgreSQL", await benchWebhooks(store), "≥ 500/s");
        const { benchBacklog } = await import("./inbox-backlog.ts");
        const b = await benchBacklog(await open("backlog"));
        console.log(
          `PostgreSQL: backlog of ${b.deliveries} seeded deliveries drained at ${b.perSec.toFixed(0)}/s   target ≥ 500/s ${b.perSec >= 500 ? "met" : "NOT MET"}`,
        );
        console.log(
          `PostgreSQL: batch statement at that backlog: ${b.seqScanOnInbox ? "Seq Scan on inbox (NOT MET)" : "index-backed (met)"}\n  ${b.plan.join("\n  ")}`,
        );
      } finally {
        await store.close();
      }
    }
    const mixed = await open("mix");
    try {
      const f = await benchWebhooks(mixed, { mix: true });
      print("PostgreSQL, the mix", f, "≥ 1,000/s");
      console.log(`PostgreSQL, the mix: load average ${f.loadAverage}; ${f.outcomes}`);
    } finally {
      await mixed.close();
    }
    for (const { kind, figures } of await benchKindsAlone(open)) {
      print(`PostgreSQL, ${kind} alone`, figures);
    }
  } finally {
    await pg.stop();
  }
}
