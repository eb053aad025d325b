import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type GitHubPort, readsOnly } from "@loopx/github";
import type { ContentLimits, InstallationControls, OpsStore, Store } from "@loopx/store";
import type { Probot } from "probot";
import { createTickApi, type TickApiOptions } from "./api/tick-api.ts";
import { createDashboard, DASHBOARD_PATH, type DashboardOptions } from "./dashboard/index.ts";
import { intakeDeps, type Logger, type WriterDeps } from "./deps.ts";
import type { DrainLoop } from "./drain-loop.ts";
import { createInstallationPorts } from "./github/installation-ports.ts";
import { createOctokitAppPort } from "./github/octokit-app-port.ts";
import { renewInstallationToken } from "./github/renew-installation-token.ts";
import { createInboxWorker } from "./inbox/inbox-worker.ts";
import { recordArrival } from "./inbox/record-arrival.ts";
import { createOutboxWorker, type OutboxOptions } from "./outbox/outbox-worker.ts";
import { createPruneLoop, PRUNE_INTERVAL_MS } from "./prune-loop.ts";
import { openPullOnPush } from "./pulls/on-pushed.ts";
import { type ReconcileResult, reconcileDeliveries } from "./reconcile-deliveries.ts";
import {
  createScheduler,
  type Scheduler,
  type SchedulerOptions,
} from "./scheduler/create-scheduler.ts";
import { type MetricsAccess, serveHealthAndMetrics, serveOperations } from "./server.ts";
import { createWebhookIntake } from "./webhooks/webhook-intake.ts";

export const WEBHOOK_PATH = "/api/github/webhooks";

export interface LoopxAppOptions {
  probot: Probot;
  store: Store;
  /** GitHub's web root for links (https://github.com, GHES, or the sandbox). */
  serverUrl: string;
  log?: Logger;
  newId?: () => string;
  /**
   * Minutes a goal waits after each stalled tick in a row; the kernel's own ladder when
   * absent. Not a setting: the bench's LoopX-without-backoff arm passes `[0]`.
   */
  backoffLadderMinutes?: readonly number[];
  /** The deployment's kill switch and spend ceilings, written onto installations. */
  controls?: InstallationControls;
  /** LoopX's own content-creation budget per installation (default: GitHub's limits less the outsiders' lane). */
  contentLimits?: ContentLimits;
  /** Retry timing of failed GitHub writes. */
  outbox?: Omit<OutboxOptions, "ops">;
  /** Test hook: wraps each installation's port (e.g. to crash right after a write). */
  wrapPort?: (port: GitHubPort) => GitHubPort;
  /** The tick API's settings (OIDC issuer and audience, workflow refs, lease length…). */
  tickApi: Omit<TickApiOptions, "onCommitted">;
  /** The wake scheduler's timing. */
  scheduler?: Omit<SchedulerOptions, "onCommitted">;
  /** The web dashboard under /loopx (default off; see app/src/dashboard). */
  dashboard?: DashboardOptions;
  /** Who may read /metrics on `handle` (default: nobody; `serveMetrics` is for a local port). */
  metrics?: MetricsAccess;
}

export interface BackgroundOptions {
  /** Queues are polled this often for work that fell due (retries, deferrals). */
  pollIntervalMs: number;
  /** Failed deliveries are fetched back from GitHub this often (and once at start). */
  reconcileIntervalMs: number;
  /** Processed deliveries and performed writes older than this are pruned (hourly, and at start). */
  retentionMs: number;
}

export interface LoopxApp {
  deps: WriterDeps;
  ops: OpsStore;
  inbox: DrainLoop;
  outbox: DrainLoop;
  /** Expired leases, due goals' dispatches: started by `start`, driven by hand in tests. */
  scheduler: Scheduler;
  /** The HTTP handler: the tick API, webhooks (verified with Probot's secret), /healthz, /metrics. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** /healthz and /metrics with no token, for a port only the operator reaches. */
  serveMetrics(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Resolves when no delivery or write is in flight (tests, shutdown). */
  settled(): Promise<void>;
  /** Fetches failed deliveries back from GitHub into the inbox, then processes them. */
  reconcile(): Promise<ReconcileResult>;
  /** Writes the deployment's controls (kill switch, ceilings) onto every installation. */
  applyControls(): Promise<void>;
  /** Starts the background timers (production; tests drive the loops themselves). */
  start(opts: BackgroundOptions): Promise<void>;
  /** Stops timers and workers; waits for what is in flight. Does not close the store. */
  close(): Promise<void>;
}

/**
 * Wires Probot to the store: a verified webhook is stored, then answered 2xx; the
 * inbox worker turns deliveries into transitions; the outbox worker writes GitHub after
 * commit. Nothing here decides anything — the kernel does.
 */
export async function createLoopxApp(opts: LoopxAppOptions): Promise<LoopxApp> {
  const { probot, store } = opts;
  const log = opts.log ?? probot.log;
  const ops = store.ops;
  const portIn = createInstallationPorts(probot, ops, opts.wrapPort);
  const portFor = (id: number) =>
    portIn(id, { kind: "loopx", ...(opts.contentLimits ? { limits: opts.contentLimits } : {}) });
  const deps: WriterDeps = {
    store,
    readsFor: async (id) => readsOnly(await portFor(id)),
    portFor,
    outsiderPortFor: (id, to) =>
      portIn(id, { kind: "outsider", subject: `repo:${to.repoId}:${to.login.toLowerCase()}` }),
    serverUrl: opts.serverUrl,
    log,
    newId: opts.newId ?? randomUUID,
    ...(opts.backoffLadderMinutes ? { backoffLadderMinutes: opts.backoffLadderMinutes } : {}),
    renewToken: (id) => renewInstallationToken(probot, id),
    dashboardUrl:
      opts.dashboard?.mode === "readonly" && opts.dashboard.publicUrl
        ? `${opts.dashboard.publicUrl.replace(/\/+$/, "")}${DASHBOARD_PATH}`
        : null,
  };
  const outbox = createOutboxWorker(deps, { ...opts.outbox, ops });
  // Only the outbox writes GitHub: everything else gets deps without the writing port.
  const reading = intakeDeps(deps);
  // A delivery that changed a goal may have queued a dispatch: it goes out at once. Its other
  // writes (comment and check-run renders of the newest state) wait for the next poll, so
  // several deliveries' changes are written once, not once each.
  const inboxLoop = createInboxWorker(reading, { onApplied: () => outbox.kickDispatches() });
  // Processing a delivery queues writes; drain them as soon as the inbox pass is done.
  const inbox: DrainLoop = {
    kick: () => inboxLoop.kick(),
    idle: async () => {
      await inboxLoop.idle();
      outbox.kick();
      await outbox.idle();
    },
    stop: () => inboxLoop.stop(),
  };

  // Probot's own webhook instance holds the secret; only its signature check is used.
  const { webhooks } = await probot.ready();
  const receiveWebhook = createWebhookIntake({
    verify: (body, signature) => webhooks.verify(body, signature),
    record: async (delivery) => {
      if ((await recordArrival(store, delivery)).pending) inbox.kick();
    },
    log,
  });
  // Tick API calls and scheduler passes commit transitions whose GitHub writes wait in the outbox.
  const extraOnPushed = opts.tickApi.onPushed;
  const tickApi = createTickApi(
    { ...reading, appGitHub: createOctokitAppPort(await probot.auth()) },
    {
      ...opts.tickApi,
      onCommitted: () => outbox.kick(),
      // A pushed todo branch gets its pull request (queued, written by the outbox).
      onPushed: async (apiDeps, event) => {
        if (await openPullOnPush(apiDeps, event)) outbox.kick();
        await extraOnPushed?.(apiDeps, event);
      },
    },
  );
  const scheduler = createScheduler(reading, {
    ...opts.scheduler,
    onCommitted: () => outbox.kick(),
  });

  const dashboard = createDashboard(reading, opts.dashboard ?? { mode: "off" });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (await tickApi(req, res)) return;
    if (await serveOperations(req, res, ops, log, opts.metrics ?? { token: null })) return;
    if (await dashboard(req, res)) return;
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path === WEBHOOK_PATH) return receiveWebhook(req, res);
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ message: "Not Found" }));
  }

  async function serveMetrics(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (await serveHealthAndMetrics(req, res, ops, log)) return;
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ message: "This port serves /healthz and /metrics only." }));
  }

  async function settled(): Promise<void> {
    // Two rounds: writes can echo back as webhooks, which can queue more writes.
    for (let i = 0; i < 2; i++) {
      await inbox.idle();
      await outbox.idle();
    }
  }

  const controls = opts.controls;
  const applyControls = async () => {
    if (controls) await ops.applyInstallationControls(controls);
  };

  let reconciling: Promise<ReconcileResult> | null = null;
  const reconcile = (): Promise<ReconcileResult> => {
    reconciling ??= reconcileDeliveries({
      appOctokit: () => probot.auth(),
      ops,
      recordDelivery: (d) => store.recordDelivery(d),
      log,
    })
      .then((result) => {
        if (result.recorded > 0) inbox.kick();
        return result;
      })
      .finally(() => {
        reconciling = null;
      });
    return reconciling;
  };

  const timers: NodeJS.Timeout[] = [];
  let prune: DrainLoop | null = null;
  const quietly = (what: string, work: () => Promise<unknown>) => () => {
    work().catch((error: unknown) => {
      log.error(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  };

  return {
    deps,
    ops,
    inbox,
    outbox,
    scheduler,
    handle,
    serveMetrics,
    settled,
    reconcile,
    applyControls,
    async start(background) {
      await applyControls();
      const poll = quietly("polling the queues", async () => {
        await applyControls();
        inbox.kick();
        outbox.kick();
      });
      const sweep = quietly("reconciling webhook deliveries", reconcile);
      timers.push(setInterval(poll, background.pollIntervalMs));
      timers.push(setInterval(sweep, background.reconcileIntervalMs));
      const pruning = createPruneLoop(store, log, { retentionMs: background.retentionMs });
      prune = pruning;
      timers.push(setInterval(() => pruning.kick(), PRUNE_INTERVAL_MS));
      poll();
      sweep();
      pruning.kick();
      scheduler.start();
    },
    async close() {
      for (const t of timers) clearInterval(t);
      await scheduler.stop();
      await reconciling?.catch(() => {});
      await prune?.stop();
      await inbox.stop();
      await outbox.stop();
    },
  };
}
