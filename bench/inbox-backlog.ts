/**
 * `npm run bench:webhooks` (its backlog row): a backlog of deliveries seeded straight into
 * the inbox table (one INSERT … SELECT, not over HTTP), then drained by the App's own inbox
 * worker (batches, lanes, handlers, the processed mark). The mix is what a big
 * organisation's firehose mostly is: 60 % `check_run.completed` on heads no goal watches
 * (the PR monitor looks them up and lets go), 40 % events LoopX has no handler for; spread
 * over 50 installations and 500 repositories. Also the batch statement's EXPLAIN at that
 * backlog: the pending index, not a scan of the inbox.
 */
import { generateKeyPairSync } from "node:crypto";
import type { Store } from "@loopx/store";
import { dbOf, pendingQuery, rowsOf, sql } from "@loopx/store/testing";
import { Probot } from "probot";
import { z } from "zod";
import { createLoopxApp } from "../app/src/create-loopx-app.ts";
import { LoopxOctokit } from "../app/src/github/loopx-octokit.ts";

export const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 100_000);

export interface BacklogFigures {
  deliveries: number;
  perSec: number;
  /** EXPLAIN of one batch at the full backlog. */
  plan: string[];
  seqScanOnInbox: boolean;
}

const PlanRow = z.object({ "QUERY PLAN": z.string() });

async function seed(store: Store, n: number): Promise<void> {
  await dbOf(store).execute(sql`
    INSERT INTO inbox (delivery_id, event, action, installation_id, payload, received_at)
    SELECT 'backlog-' || g,
           CASE WHEN g % 10 < 6 THEN 'check_run' ELSE 'star' END,
           CASE WHEN g % 10 < 6 THEN 'completed' ELSE 'created' END,
           1000 + g % 50,
           jsonb_build_object(
             'action', CASE WHEN g % 10 < 6 THEN 'completed' ELSE 'created' END,
             'installation', jsonb_build_object('id', 1000 + g % 50),
             'repository', jsonb_build_object(
               'id', 5000 + g % 500, 'name', 'r' || g % 500, 'full_name', 'acme/r' || g % 500,
               'owner', jsonb_build_object('login', 'acme', 'id', 9)),
             'check_run', jsonb_build_object(
               'head_sha', md5((g / 20)::text), 'pull_requests', '[]'::jsonb)),
           now() - interval '1 hour' + g * interval '1 microsecond'
    FROM generate_series(1, ${n}) g`);
  await dbOf(store).execute(sql`ANALYZE inbox`);
}

export async function benchBacklog(store: Store, n = BACKLOG): Promise<BacklogFigures> {
  await store.migrate();
  await seed(store, n);
  const explained = rowsOf(await dbOf(store).execute(sql`EXPLAIN ${pendingQuery(64, 16)}`));
  const plan = explained.map((r) => PlanRow.parse(r)["QUERY PLAN"]);
  const { privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  const probot = new Probot({
    appId: 1,
    privateKey,
    secret: "bench",
    baseUrl: "http://127.0.0.1:9",
    Octokit: LoopxOctokit,
    logLevel: "error",
  });
  const quiet = { info: () => {}, warn: (m: string) => console.error(m), error: console.error };
  const app = await createLoopxApp({
    probot,
    store,
    serverUrl: "http://127.0.0.1:9",
    log: quiet,
    tickApi: { issuer: "http://127.0.0.1:9", audience: "https://loopx.bench.example" },
  });
  try {
    await app.outbox.stop();
    const started = performance.now();
    app.inbox.kick();
    await app.inbox.idle();
    const seconds = (performance.now() - started) / 1000;
    const left = rowsOf(
      await dbOf(store).execute(
        sql`SELECT count(*)::int AS n FROM inbox WHERE processed_at IS NULL`,
      ),
    );
    const pending = z.object({ n: z.number() }).parse(left[0]).n;
    if (pending > 0) throw new Error(`the backlog left ${pending} deliveries pending`);
    return {
      deliveries: n,
      perSec: n / seconds,
      plan,
      seqScanOnInbox: plan.some((l) => /Seq Scan on inbox/.test(l)),
    };
  } finally {
    await app.close();
  }
}
