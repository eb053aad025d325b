/**
 * `npm run bench:webhooks`: webhook → committed transition, through the real app over HTTP
 * (signature check, inbox insert, the inbox worker, the handler's GitHub reads against the
 * sandbox, the goal-creating transaction), on PGlite and on real PostgreSQL.
 *
 *   latency:    one `issues.labeled` at a time; from the POST to the transaction's commit
 *   throughput: bursts of them, 64 in flight, sent from a worker thread; committed
 *               transitions per second, the median over BURSTS bursts after one that
 *               warms up (its rate printed apart)
 *
 *   mix:        the same latency and bursts for the issue's mix on PostgreSQL (60 % check
 *               runs on watched PRs, 20 % comments on 1,000-todo goals, 10 % labels, 10 %
 *               unrelated; bench/webhook-mix.ts), with the load average and what each did;
 *               then each kind but labels sent alone, to show where the mix's time goes
 *
 * backlog:    deliveries seeded straight into the inbox, drained by the inbox worker
 *               (bench/inbox-backlog.ts), and the batch statement's EXPLAIN at that backlog
 *
 * Figures, not pass criteria (targets on PostgreSQL: p99 < 20 ms, ≥ 500 events/s). The
 * outbox is stopped so GitHub writes do not compete with what is measured. The handler's
 * GitHub reads (permission, .github/loopx.yml) are answered in memory: the sandbox spends
 * ~10–40 ms per call (git-backed contents), which would time the fake GitHub, not the app.
 * BENCH_GITHUB_READS=sandbox keeps them on the sandbox for the end-to-end figure.
 *
 *   npx tsx bench/webhooks-cli.ts                                  # PGlite + a throwaway PostgreSQL
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/webhooks-cli.ts  # a role that may CREATE DATABASE
 *   BENCH_WEBHOOKS=mix npx tsx bench/webhooks-cli.ts               # the mix and its kinds alone
 */
import { createServer } from "node:http";
import type { GitHubPort } from "@loopx/github";
import type { Store } from "@loopx/store";
import { Octokit } from "@octokit/rest";
import { Webhooks } from "@octokit/webhooks";
import { Probot } from "probot";
import { z } from "zod";
import { createLoopxApp, WEBHOOK_PATH } from "../app/src/create-loopx-app.ts";
import { LoopxOctokit } from "../app/src/github/loopx-octokit.ts";
import { createSandbox, type Sandbox } from "../packages/sandbox/src/index.ts";
import { median, quantile } from "./stats.ts";
import {
  loadAverage,
  MIX,
  type MixDelivery,
  type MixKind,
  outcomes,
  pullReadsInMemory,
  seedMix,
} from "./webhook-mix.ts";
import { type SignedDelivery, startSender } from "./webhook-sender.ts";

const LATENCY_EVENTS = Number(process.env.BENCH_LATENCY_EVENTS ?? 300);
const BURST_EVENTS = Number(process.env.BENCH_BURST_EVENTS ?? 2000);
/** Measured bursts, after one more that warms up (BURST_EVENTS is shared among them all). */
const BURSTS = 3;
export const IN_FLIGHT = 64;

export interface WebhookOptions {
  mix?: boolean;
  only?: MixKind;
}

export interface WebhookFigures {
  p50Ms: number;
  p99Ms: number;
  latencySamples: number;
  /** Median over the measured bursts. */
  eventsPerSec: number;
  bursts: number[];
  /**
   * The warm-up burst's rate: the pool's connections opened, the sender's opened to the App,
   * and the concurrent path compiled, all during it.
   */
  coldEventsPerSec: number;
  /** The 1, 5 and 15 minute load averages when the bursts ended. */
  loadAverage: string;
  /** Per event, how many deliveries committed a change and how many changed nothing. */
  outcomes: string;
}

/**
 * `mix`: the issue's mix (bench/webhook-mix.ts) instead of labels only, with the PR
 * monitor's reads answered in memory too; `only`: one of the mix's kinds alone, on the mix's
 * goals and pull requests.
 */
export async function benchWebhooks(
  store: Store,
  opts: WebhookOptions = {},
): Promise<WebhookFigures> {
  const secret = "bench-secret";
  const sandbox = await createSandbox({ webhookSecret: secret, secondaryLimits: false });
  // Stopped whatever fails on the way (a payload the App's schema refuses, say): a sandbox
  // left listening keeps `npm run bench` from exiting after it wrote its results.
  try {
    return await benchOnSandbox(sandbox, secret, store, opts);
  } finally {
    await sandbox.stop();
  }
}

async function benchOnSandbox(
  sandbox: Sandbox,
  secret: string,
  store: Store,
  opts: WebhookOptions,
): Promise<WebhookFigures> {
  const mix = opts.mix === true || opts.only !== undefined;
  sandbox.createRepo("acme/widgets", { collaborators: { alice: "maintain" } });
  const { app: appRecord, privateKey } = sandbox.createApp({ slug: "loopx" });
  if (!privateKey) throw new Error("the sandbox made no private key");
  sandbox.install(appRecord.id, "acme", ["acme/widgets"]);

  // The labelled payloads exactly as GitHub (the sandbox) renders them, captured with no
  // webhook URL set; the bench then posts them itself to time each one.
  const alice = new Octokit({
    baseUrl: sandbox.url,
    auth: sandbox.createUserToken("alice"),
    request: { retries: 0 },
  });
  const total = LATENCY_EVENTS + BURST_EVENTS;
  // One labelled issue at least: its payload names the installation.
  const labels =
    !mix || opts.only === "label" ? total : opts.only ? 1 : Math.ceil(total * MIX.label);
  for (let i = 0; i < labels; i++) {
    const { data } = await alice.rest.issues.create({
      owner: "acme",
      repo: "widgets",
      title: `bench goal ${i}`,
    });
    await alice.rest.issues.addLabels({
      owner: "acme",
      repo: "widgets",
      issue_number: data.number,
      labels: ["loopx"],
    });
  }
  await sandbox.settle();
  const bodies = sandbox.emitted
    .filter((e) => e.event === "issues" && e.payload.action === "labeled")
    .map((e) => JSON.stringify(e.payload));

  await store.migrate();
  const installationId = z
    .object({ installation: z.object({ id: z.number() }) })
    .parse(JSON.parse(bodies[0] ?? "{}")).installation.id;
  const deliveries: MixDelivery[] = mix
    ? await seedMix(store, sandbox, bodies, total, installationId, opts.only)
    : bodies.map((body, i) => ({ id: `bench-${i}`, event: "issues", body }));
  const committed = new Map<string, () => void>();
  const done = (id: string | undefined) => committed.get(id ?? "")?.();
  // Where a delivery's transaction commits: a transition, an intake record, or the inbox row
  // or mark of one that changed nothing.
  const timed: Store = {
    ...store,
    createGoal: async (build, o) => {
      const r = await store.createGoal(build, o);
      done(o?.deliveryId);
      return r;
    },
    apply: async (goalId, transition, o) => {
      const r = await store.apply(goalId, transition, o);
      done(o?.deliveryId);
      return r;
    },
    recordIntake: async (r) => {
      const recorded = await store.recordIntake(r);
      done(r.deliveryId);
      return recorded;
    },
    // A delivery settled on arrival commits with its inbox row.
    recordDelivery: async (d) => {
      const r = await store.recordDelivery(d);
      if (d.settled) done(d.deliveryId);
      return r;
    },
    markDeliveriesProcessed: async (marks) => {
      const n = await store.markDeliveriesProcessed(marks);
      for (const m of marks) done(m.deliveryId);
      return n;
    },
  };
  const probot = new Probot({
    appId: appRecord.id,
    privateKey,
    secret,
    baseUrl: sandbox.gheUrl,
    Octokit: LoopxOctokit,
    logLevel: "error",
  });
  const quiet = { info: () => {}, warn: () => {}, error: (m: string) => console.error(m) };
  const readsInMemory = process.env.BENCH_GITHUB_READS !== "sandbox";
  const app = await createLoopxApp({
    probot,
    store: timed,
    serverUrl: sandbox.url,
    log: quiet,
    // Webhooks only: no workflow calls this App's tick API here.
    tickApi: { issuer: sandbox.url, audience: "https://loopx.bench.example" },
    // The mix's PRs exist only in the store, so their reads are always answered in memory.
    wrapPort: (port) => {
      const local: GitHubPort = readsInMemory
        ? { ...port, permission: async () => "maintain", readConfig: async () => null }
        : port;
      return mix ? pullReadsInMemory(local) : local;
    },
  });
  await app.outbox.stop();
  const server = createServer((req, res) => void app.handle(req, res));
  // Sockets idle between bursts must stay open: a client reusing one the server has just
  // closed (after the default 5 s) gets ECONNRESET.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  const url = `http://127.0.0.1:${address.port}${WEBHOOK_PATH}`;
  const signer = new Webhooks({ secret });
  // Signed beforehand: GitHub signs, not the App, so signing is not part of what is timed.
  const signed: SignedDelivery[] = await Promise.all(
    deliveries.map(async (d) => ({ ...d, signature: await signer.sign(d.body) })),
  );
  const commitOf = (id: string) => new Promise<void>((resolve) => committed.set(id, resolve));

  async function one(d: SignedDelivery): Promise<number> {
    const done = commitOf(d.id);
    const started = performance.now();
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": d.event ?? "issues",
        "x-github-delivery": d.id,
        "x-hub-signature-256": d.signature,
      },
      body: d.body,
    });
    if (!response.ok) throw new Error(`the app answered ${response.status} to ${d.id}`);
    await done;
    committed.delete(d.id);
    return performance.now() - started;
  }

  try {
    // Warm-up: token, bot login, JIT, prepared statements.
    for (const d of signed.slice(0, 20)) await one(d);
    const latencies: number[] = [];
    for (const d of signed.slice(20, LATENCY_EVENTS)) latencies.push(await one(d));

    // Bursts come from a worker thread (bench/webhook-sender.ts): the sender's work stays
    // off the App's event loop. A burst ends when its last transition has committed. The
    // first is a warm-up, as a serving App's pool and its senders' connections are open and
    // its code compiled: its rate is kept apart.
    const rates: number[] = [];
    const all = signed.slice(LATENCY_EVENTS);
    const size = Math.floor(all.length / (BURSTS + 1));
    const sender = await startSender(url, IN_FLIGHT);
    try {
      for (let b = 0; b <= BURSTS; b++) {
        const burst = all.slice(b * size, (b + 1) * size);
        const commits = burst.map((d) => commitOf(d.id));
        let started = 0;
        await sender.burst(burst, () => {
          started = performance.now();
        });
        await Promise.all(commits);
        rates.push(burst.length / ((performance.now() - started) / 1000));
      }
    } finally {
      await sender.close();
    }
    const [cold = 0, ...warm] = rates;
    return {
      coldEventsPerSec: cold,
      loadAverage: loadAverage(),
      outcomes: await outcomes(store),
      p50Ms: quantile(latencies, 0.5),
      p99Ms: quantile(latencies, 0.99),
      latencySamples: latencies.length,
      eventsPerSec: median(warm),
      bursts: warm,
    };
  } finally {
    await app.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** The mix's kinds sent alone (labels alone are the plain bench), each on a fresh store. */
export const KINDS_ALONE: readonly MixKind[] = ["checkRun", "comment", "unrelated"];

export async function benchKindsAlone(
  open: (kind: MixKind) => Promise<Store>,
): Promise<{ kind: MixKind; figures: WebhookFigures }[]> {
  const out = [];
  for (const kind of KINDS_ALONE) {
    const store = await open(kind);
    try {
      out.push({ kind, figures: await benchWebhooks(store, { only: kind }) });
    } finally {
      await store.close();
    }
  }
  return out;
}
