/**
 * `npm run bench`: every figure with a target, measured in one run, printed as
 * one table (figure, value, target, met) and written to bench/results.md with the date and
 * the machine. Figures, not pass criteria: it exits 0 whatever the figures are.
 *
 * Real PostgreSQL: BENCH_DATABASE_URL or DATABASE_URL (a role that may CREATE DATABASE),
 * else a throwaway server (test/support/postgres-server.ts). Without either, the PostgreSQL
 * rows say "not measured".
 */
import { writeFileSync } from "node:fs";
import os from "node:os";
import { resolve } from "node:path";
import { benchPostgres } from "./pg.ts";
import { claimRows, decideRows, guarded, sweepRows } from "./sections.ts";
import { GOVERNANCE_NOTES, governanceRows, tickRows, webhookRows } from "./sections-app.ts";
import { grownClaimRows, growthRows } from "./sections-growth.ts";
import { type Row, renderMarkdown, renderText } from "./table.ts";

const RESULTS = resolve(import.meta.dirname, "results.md");
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");

const started = new Date();
const loadBefore = load();
const rows: Row[] = [];
const section = async (name: string, body: () => Promise<Row[]>) => {
  const t = performance.now();
  process.stderr.write(`bench: ${name}…`);
  rows.push(...(await guarded(name, body)));
  process.stderr.write(` ${((performance.now() - t) / 1000).toFixed(0)} s\n`);
};

await section("decide()", decideRows);
await section("governance", governanceRows);
const pg = await benchPostgres().catch(() => null);
try {
  const noPg = async (): Promise<Row[]> => {
    throw new Error("no PostgreSQL (set BENCH_DATABASE_URL or install postgresql)");
  };
  await section("tick claims (PostgreSQL)", pg ? () => claimRows(pg) : noPg);
  await section("due sweep (PostgreSQL)", pg ? () => sweepRows(pg) : noPg);
  await section("goal growth (PostgreSQL)", pg ? () => growthRows(pg) : noPg);
  await section("claims on grown goals (PostgreSQL)", pg ? () => grownClaimRows(pg) : noPg);
  await section("webhooks", () => webhookRows(pg));
} finally {
  await pg?.stop();
}
await section("ticks and GitHub requests", tickRows);

const cpus = os.cpus();
const header = [
  "# LoopX benchmarks",
  "",
  `Measured ${started.toISOString()} by \`npm run bench\` (one run; medians over repeats, as each row says).`,
  `Machine: ${cpus.length} cores (os.cpus().length), ${cpus[0]?.model.trim() ?? "unknown CPU"}, Node ${process.version}, ${os.platform()} ${os.release()}.`,
  `Load average (1 / 5 / 15 min) at start: ${loadBefore}; at end: ${load()}. The machine is shared: wall-clock figures move with the load.`,
  "",
  "`met` / `NOT MET` compare each figure with its target; rows without a target give context.",
];
const notes = [
  "decide(): goals built in memory, a gate per ten todos, most todos gated so decide() reads them all; 5 repeats of 4,000 calls.",
  "Webhooks: the real App over HTTP (signature check, inbox, worker, goal-creating transaction); the handler's two GitHub reads answered in memory (BENCH_GITHUB_READS=sandbox in bench/webhooks.ts keeps them on the sandbox); outbox stopped. Bursts come from a worker thread over plain keep-alive sockets, their requests built before the clock starts (fetch cost the shared two cores about 450 µs a request).",
  "Claims: 32 single-connection sessions draining 1,000 due goals through claimNextDue (FOR UPDATE SKIP LOCKED), a fresh database per repeat.",
  "Requests: counted from the sandbox's request log (OIDC token requests to the runner service excluded); a productive tick is ask → shell slice → report → the App's outbox.",
  ...GOVERNANCE_NOTES,
];

console.log(renderText(rows));
writeFileSync(RESULTS, renderMarkdown(rows, header, notes));
console.log(`\nwritten to ${RESULTS}`);
