/** The App's rows of the one table: webhooks, ticks and requests, governance. */
import { openStore } from "@loopx/store";
import { benchGovernance, CRON, MODEL, SCENARIOS, type Scenario, WAKE_CRON } from "./governance.ts";
import type { BenchPostgres } from "./pg.ts";
import { ms, row } from "./sections.ts";
import type { Row } from "./table.ts";
import type { MixKind } from "./webhook-mix.ts";
import type { WebhookFigures } from "./webhooks.ts";

export async function webhookRows(pg: BenchPostgres | null): Promise<Row[]> {
  // Imported here: it pulls in the App, Probot and the sandbox.
  const { benchWebhooks, IN_FLIGHT } = await import("./webhooks.ts");
  const rows: Row[] = [];
  const rates: number[] = [];
  const stores: [string, () => Promise<Awaited<ReturnType<typeof openStore>>>][] = [
    ["PGlite (embedded)", () => openStore({ dataDir: "memory://" })],
  ];
  if (pg) {
    stores.push([
      pg.source,
      async () =>
        openStore({ databaseUrl: await pg.freshDatabase("webhooks"), maxConnections: 16 }),
    ]);
  }
  for (const [label, open] of stores) {
    const section = `webhook → committed transition (${label})`;
    const onPg = label !== "PGlite (embedded)";
    const store = await open();
    try {
      const f = await benchWebhooks(store);
      rates.push(f.eventsPerSec);
      rows.push(
        row(section, `p50, one at a time (${f.latencySamples} events)`, ms(f.p50Ms)),
        row(
          section,
          "p99, one at a time",
          ms(f.p99Ms),
          onPg ? "< 20 ms" : "—",
          onPg ? f.p99Ms < 20 : null,
        ),
        row(
          section,
          `events/s, ${IN_FLIGHT} in flight (${bursts(f)})`,
          f.eventsPerSec.toFixed(0),
          onPg ? "≥ 500/s" : "—",
          onPg ? f.eventsPerSec >= 500 : null,
        ),
      );
    } finally {
      await store.close();
    }
  }
  const [lite, real] = rates;
  if (lite !== undefined && real !== undefined) {
    rows.push(
      row(
        "webhook → committed transition: PostgreSQL vs PGlite",
        "events/s ratio, PostgreSQL : PGlite",
        `${(real / lite).toFixed(2)}×`,
      ),
    );
  }
  if (pg) rows.push(...(await mixRows(pg)), ...(await backlogRows(pg)));
  return rows;
}

/** Which bursts a rate is the median of, and the warm-up's own rate. */
function bursts(f: WebhookFigures): string {
  const each = f.bursts.map((b) => b.toFixed(0)).join(", ");
  return `median of ${each}, after a warm-up burst at ${f.coldEventsPerSec.toFixed(0)}/s`;
}

/** The webhook mix on PostgreSQL (bench/webhook-mix.ts says what is sent and read). */
async function mixRows(pg: BenchPostgres): Promise<Row[]> {
  const { benchKindsAlone, benchWebhooks, IN_FLIGHT } = await import("./webhooks.ts");
  const open = async (label: string) =>
    openStore({ databaseUrl: await pg.freshDatabase(label), maxConnections: 16 });
  const store = await open("mix");
  try {
    const f = await benchWebhooks(store, { mix: true });
    const section = `webhook mix: 60 % check_run on watched PRs, 20 % comments on 1,000-todo goals, 10 % labels, 10 % unrelated (${pg.source}; GitHub reads, the PR monitor's included, answered in memory)`;
    return [
      row(section, `p50, one at a time (${f.latencySamples} events)`, ms(f.p50Ms)),
      row(section, "p99, one at a time", ms(f.p99Ms), "< 20 ms", f.p99Ms < 20),
      row(
        section,
        `events/s committed (transition + outbox, or stored or marked processed when nothing changed), ${IN_FLIGHT} in flight (${bursts(f)}; load average ${f.loadAverage})`,
        f.eventsPerSec.toFixed(0),
        "≥ 1,000/s",
        f.eventsPerSec >= 1000,
      ),
      row(section, "what the deliveries did", f.outcomes),
      row(section, ...kindsAlone(await benchKindsAlone(open))),
    ];
  } finally {
    await store.close();
  }
}

const KIND_NAMES: Record<MixKind, string> = {
  checkRun: "check runs with their suites",
  comment: "comments on 1,000-todo goals",
  label: "labels",
  unrelated: "unrelated events",
};

/** A figure and its value: each kind's rate when sent alone, where the mix's time goes. */
function kindsAlone(kinds: { kind: MixKind; figures: WebhookFigures }[]): [string, string] {
  return [
    `events/s of each kind sent alone, same goals and pull requests (each the median of ${kinds[0]?.figures.bursts.length ?? 0} bursts after a warm-up; labels alone: the label row above)`,
    kinds
      .map(({ kind, figures }) => `${KIND_NAMES[kind]} ${figures.eventsPerSec.toFixed(0)}`)
      .join(" · "),
  ];
}

/** The inbox backlog drain on PostgreSQL (bench/inbox-backlog.ts says what is seeded). */
async function backlogRows(pg: BenchPostgres): Promise<Row[]> {
  const { benchBacklog, BACKLOG } = await import("./inbox-backlog.ts");
  const store = await openStore({
    databaseUrl: await pg.freshDatabase("backlog"),
    maxConnections: 16,
  });
  try {
    const f = await benchBacklog(store);
    const section = `inbox backlog drain (${pg.source})`;
    return [
      row(
        section,
        `${BACKLOG.toLocaleString("en")} deliveries seeded into the inbox table (60 % check runs no goal watches, 40 % unhandled events), drained/s`,
        f.perSec.toFixed(0),
        "≥ 500/s",
        f.perSec >= 500,
      ),
      row(
        section,
        "batch statement at the full backlog: EXPLAIN",
        f.seqScanOnInbox ? "Seq Scan on inbox" : "inbox_pending_idx, no Seq Scan",
        "index-backed",
        !f.seqScanOnInbox,
      ),
    ];
  } finally {
    await store.close();
  }
}

export async function tickRows(): Promise<Row[]> {
  const { benchTick } = await import("./tick.ts");
  const { benchRequests, benchTickRequests } = await import("./github-requests.ts");
  const { capacity } = await import("./tick-capacity.ts");
  const t = await benchTick();
  const r = await benchRequests();
  const ticks = await benchTickRequests();
  const req = "GitHub requests (sandbox request log, exact)";
  const wall = "action wait tick (bundle spawned as a process)";
  const perWait = t.wait.requests / t.wait.waitTicks;
  const writes = new Map<string, number>();
  for (const w of t.productive.writes) writes.set(w, (writes.get(w) ?? 0) + 1);
  return [
    row(
      req,
      `per wait tick (${t.wait.requests} over ${t.wait.waitTicks} wait ticks)`,
      perWait.toFixed(2),
      "0",
      perWait === 0,
    ),
    row(
      req,
      "per productive tick: content-creating writes",
      String(t.productive.contentCreating),
      "≤ 3 writes",
      t.productive.contentCreating <= 3,
    ),
    row(
      req,
      "per productive tick: all requests (REST reads / REST writes / git)",
      `${t.productive.total} (${t.productive.reads} / ${t.productive.writes.length} / ${t.productive.git})`,
    ),
    row(
      req,
      "per productive tick: the REST writes",
      [...writes].map(([w, n]) => `${n}× ${w}`).join("; ") || "none",
    ),
    row(
      req,
      "goal start (label): requests / writes / content-creating",
      `${r.start.requests} / ${r.start.writes} / ${r.start.contentCreating}`,
    ),
    row(
      req,
      "gate approval (comment): requests / writes / content-creating",
      `${r.approval.requests} / ${r.approval.writes} / ${r.approval.contentCreating}`,
    ),
    ...(
      [
        ["first productive tick, 20-check CI (opens the PR)", ticks.first],
        ["follow-on productive tick, 20-check CI", ticks.next],
      ] as const
    ).flatMap(([what, c]) => {
      const cap = capacity(c, 30);
      return [
        row(
          req,
          `${what}: App REST requests (304s apart, uncharged); before: 22–32 before CI, ~5 per check run`,
          `${c.rest} (+${c.notModified} × 304)`,
          "≤ 10",
          c.rest <= 10,
        ),
        row(
          req,
          `${what}: content-creating (of them asking a person: a gate's question about the new head, a notice)`,
          `${c.contentCreating} (${c.tellsPerson})`,
          what.startsWith("first") ? "≤ 1 besides asking a person" : "0 besides asking a person",
          c.contentCreating - c.tellsPerson <= (what.startsWith("first") ? 1 : 0),
        ),
        row(req, `${what}: App requests by route (304s apart)`, c.byOperation.join(", ")),
        row(
          req,
          `${what}: goals per installation at a 30-min cadence, all limits at 80 % (one repository / one each); before: ~7 at 10 min with a 20-check CI`,
          `${cap.oneRepository.goals} / ${cap.repositoryEach.goals} (${cap.repositoryEach.limitedBy})`,
          "≥ 150",
          cap.repositoryEach.goals >= 150,
        ),
      ];
    }),
    row(
      wall,
      `process start → exit, median of ${t.repeats}`,
      ms(t.wait.spawn, 0),
      "< 1 s",
      t.wait.spawn < 1000,
    ),
    row(wall, "the first wait tick (cold)", ms(t.wait.cold, 0)),
    row(wall, "the App's share: the ask POST alone, median", ms(t.wait.api, 1)),
    row(
      wall,
      "action bundle size",
      `${(t.bundleBytes / 1024).toFixed(0)} KiB (${(t.bundleGzipBytes / 1024).toFixed(0)} KiB gzipped)`,
    ),
  ];
}

const NAMES: Record<Scenario, string> = {
  approval: "waits 2 days on an approval",
  stall: "stalls",
  progress: "progresses (5 slices)",
};

export async function governanceRows(): Promise<Row[]> {
  const g = await benchGovernance();
  const section = "governance over one simulated week (sandbox clock; LoopX vs naive cron loop)";
  const usd = (n: number) => `$${n.toFixed(2)}`;
  const rows: Row[] = [];
  for (const s of SCENARIOS) {
    const l = g.loopx[s];
    const n = g.naive[s];
    rows.push(
      row(
        section,
        `${NAMES[s]}: harness runs / runner min / USD, LoopX vs naive`,
        `${l.harnessRuns} / ${l.runnerMinutes} / ${usd(l.usd)} vs ${n.harnessRuns} / ${n.runnerMinutes} / ${usd(n.usd)}`,
      ),
      row(section, `${NAMES[s]}: where LoopX ended the week`, l.status.replace(/\. .*$/, ".")),
    );
  }
  const { loopx, naive } = g.total;
  rows.push(
    row(
      section,
      `LoopX's daily wake job (${WAKE_CRON}), one repository, a week (an idle repository: ≤ 31 billed min a month, target ≤ 60)`,
      `${g.wakeJobs} runs / ${g.wakeJobs * MODEL.shortJobRunnerMinutes} min / ${usd(g.wakeJobs * MODEL.shortJobRunnerMinutes * MODEL.runnerUsdPerMinute)}`,
    ),
    row(
      section,
      "total harness runs, LoopX vs naive",
      `${loopx.harnessRuns} vs ${naive.harnessRuns}`,
    ),
    row(
      section,
      "total runner minutes, LoopX vs naive",
      `${loopx.runnerMinutes} vs ${naive.runnerMinutes}`,
    ),
    row(section, "total USD, LoopX vs naive", `${usd(loopx.usd)} vs ${usd(naive.usd)}`),
    row(section, "ratio naive : LoopX (USD)", `${(naive.usd / loopx.usd).toFixed(1)}×`),
    row(
      section,
      "ratio naive : LoopX (harness runs)",
      `${(naive.harnessRuns / loopx.harnessRuns).toFixed(1)}×`,
    ),
  );
  return rows;
}

/** What governanceRows models, for the notes under the table. */
export const GOVERNANCE_NOTES = [
  `Governance: real kernel decisions (claims, waits, gates, backoff, replan, ask-a-human) on the sandbox clock; modeled: the harness (a stand-in, fixed ${MODEL.harnessRunnerMinutes} runner min and $${MODEL.harnessModelUsd.toFixed(2)} model spend per slice, scripted results), dispatch (a goal runs the minute it falls due, as the App's timer does), ${MODEL.shortJobRunnerMinutes}-minute billing of short jobs and $${MODEL.runnerUsdPerMinute}/runner-minute (GitHub-hosted Linux, 2 cores). The naive loop runs one slice per goal on every firing of an hourly cron (${CRON}) and stops on a goal once it is done.`,
];
