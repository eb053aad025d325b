/**
 * The real LoopX App on a cell's sandbox, started the way test/support/tick-api-harness.ts
 * starts it (Probot over loopback HTTP, the tick API composed in front, the sandbox's OIDC
 * issuer minting the Actions tokens), on a fresh in-memory PGlite store whose `now()` can be
 * moved with the sandbox's simulated clock: every lease, backoff window and wake is judged on
 * the database clock, so simulated hours must reach it too.
 */
import { PGlite } from "@electric-sql/pglite";
import { openStore, type Store } from "@loopx/store";
import { Probot } from "probot";
import {
  createLoopxApp,
  type LoopxApp,
  WEBHOOK_PATH,
} from "../../../../app/src/create-loopx-app.ts";
import type { Logger } from "../../../../app/src/deps.ts";
import { LoopxOctokit } from "../../../../app/src/github/loopx-octokit.ts";
import type { ActionsClaims, Sandbox } from "../../../../packages/sandbox/src/index.ts";
import { SIM_CLOCK_SQL } from "../../../../test/faults/support/sim-clock.ts";
import { settler } from "../../../../test/support/app-on-sandbox.ts";
import { listenFirst } from "../../../../test/support/listen-first.ts";
import { mintTickToken, postJson } from "../../../../test/support/tick-api-harness.ts";

export interface LoopxOnSandbox {
  app: LoopxApp;
  store: Store;
  apiUrl: string;
  installationId: number;
  repo: { fullName: string; id: number; ownerId: number };
  /** Warnings and errors the App logged (the bench's notes). */
  warnings: string[];
  /** Delivers queued webhooks and drains the App's inbox and outbox until quiet. */
  settle(): Promise<void>;
  /** Moves the database clock up to the sandbox's (never back: leases must not un-expire). */
  syncClock(): Promise<void>;
  /** Keeps the App's installation tokens alive across a jump of the simulated clock. */
  carryTokens(ms: number): void;
  token(runId: number, claims?: Partial<ActionsClaims>): Promise<string>;
  post(path: string, body: unknown, token: string): Promise<{ status: number; body: unknown }>;
  /** Stops the App, runs `down` while nothing listens (time passes), and boots it again. */
  restart(down: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

export async function startLoopxOnSandbox(opts: {
  sandbox: Sandbox;
  repo: string;
  /** The kernel's waits after stalled ticks (its own ladder when absent). */
  backoffLadderMinutes?: readonly number[];
}): Promise<LoopxOnSandbox> {
  const { sandbox } = opts;
  const secret = `loopx-bench-${opts.repo}`;
  const { app: appRecord, privateKey } = sandbox.createApp({
    slug: "loopx",
    webhookSecret: secret,
  });
  if (!privateKey) throw new Error("the sandbox made no private key for the LoopX App");

  // simclock.now() = the real now plus a shift, found before pg_catalog's on the search path,
  // set before the migrations so column defaults bind to it (test/faults/support/sim-clock.ts).
  const pg = new PGlite("memory://");
  await pg.exec(`${SIM_CLOCK_SQL}\n  SET search_path = public, simclock, pg_catalog;`);
  const store = await openStore({ pglite: pg });
  await store.migrate();

  const warnings: string[] = [];
  const log: Logger = {
    info: () => {},
    warn: (m) => warnings.push(`warn: ${m}`),
    error: (m) => warnings.push(`error: ${m}`),
  };
  // One App process: Probot, the tick API and its HTTP server. A restart stops it and boots
  // another on the same database, as a deploy or a crash and a restart do.
  const boot = async () => {
    const probot = new Probot({
      appId: appRecord.id,
      privateKey,
      secret,
      baseUrl: sandbox.gheUrl,
      Octokit: LoopxOctokit,
      logLevel: "fatal",
    });
    const { server, url: apiUrl, serve } = await listenFirst();
    const app = await createLoopxApp({
      probot,
      store,
      serverUrl: sandbox.url,
      log,
      ...(opts.backoffLadderMinutes ? { backoffLadderMinutes: opts.backoffLadderMinutes } : {}),
      tickApi: { issuer: sandbox.url, audience: apiUrl, now: () => new Date(sandbox.clock.now()) },
    });
    serve(app.handle);
    sandbox.setWebhookUrl(`${apiUrl}${WEBHOOK_PATH}`);
    return { app, server, apiUrl };
  };
  const stop = async (p: Awaited<ReturnType<typeof boot>>) => {
    await p.app.close();
    p.server.closeAllConnections();
    await new Promise((resolve) => p.server.close(resolve));
    sandbox.setWebhookUrl(null);
  };
  let current = await boot();
  const record = sandbox.repoByFullName(opts.repo);
  const [owner = ""] = opts.repo.split("/");
  const installation = sandbox.install(appRecord.id, owner, [opts.repo]);

  const settle = settler(sandbox, () => current.app);
  await settle();

  let shift = 0;
  const repo = { fullName: opts.repo, id: record.id, ownerId: record.ownerId };
  return {
    get app() {
      return current.app;
    },
    store,
    get apiUrl() {
      return current.apiUrl;
    },
    installationId: installation.id,
    repo,
    warnings,
    settle,
    async syncClock() {
      const wanted = sandbox.clock.now() - Date.now();
      if (wanted <= shift) return;
      shift = Math.ceil(wanted);
      await pg.query("UPDATE simclock.shift SET ms = $1", [shift]);
    },
    carryTokens(ms) {
      // The App's token cache lives on the machine's clock (Probot keeps a token 59 real
      // minutes); GitHub's expiry here is simulated. A token the App rightly holds as fresh
      // must not die because the bench jumped hours in a second, so it moves with the jump.
      for (const t of sandbox.store.tokens.values()) {
        if (t.kind === "installation" && t.installationId === installation.id) t.expiresAt += ms;
      }
    },
    token: (runId, claims = {}) =>
      mintTickToken(sandbox, repo, runId, claims, { audience: current.apiUrl }),
    post: (path, body, token) => postJson(`${current.apiUrl}${path}`, body, token),
    async restart(down) {
      await stop(current);
      // Deliveries GitHub sends while nothing listens fail, as they do on GitHub.
      await down();
      current = await boot();
      // A booted App asks GitHub for the deliveries that failed meanwhile, and redelivers them.
      await current.app.reconcile();
      await settle();
    },
    async close() {
      await stop(current);
      await store.close();
    },
  };
}
