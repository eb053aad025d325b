import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { GitHubPort } from "@loopx/github";
import type { Store } from "@loopx/store";
import { createNodeMiddleware, type Probot } from "probot";
import { z } from "zod";
import type { AppDeps, Logger } from "./deps.ts";
import type { DrainLoop } from "./drain-loop.ts";
import { createOctokitPort } from "./github/octokit-port.ts";
import { createInboxWorker } from "./inbox/inbox-worker.ts";
import { createOutboxWorker } from "./outbox/outbox-worker.ts";
import { Routable } from "./webhooks/payloads.ts";

export const WEBHOOK_PATH = "/api/github/webhooks";

export interface LoopxAppOptions {
  probot: Probot;
  store: Store;
  /** GitHub's web root for links (https://github.com, GHES, or the sandbox). */
  serverUrl: string;
  log?: Logger;
  newId?: () => string;
}

export interface LoopxApp {
  deps: AppDeps;
  inbox: DrainLoop;
  outbox: DrainLoop;
  /** The HTTP handler: webhooks (verified by Probot), /healthz. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Resolves when no delivery or write is in flight (tests, shutdown). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const AppSlug = z.object({ slug: z.string().min(1) });

/**
 * Wires Probot to the store: a verified webhook is stored and answered 2xx at once; the
 * inbox worker turns deliveries into transitions; the outbox worker writes GitHub after
 * commit. Nothing here decides anything — the kernel does.
 */
export async function createLoopxApp(opts: LoopxAppOptions): Promise<LoopxApp> {
  const { probot, store } = opts;
  const log = opts.log ?? probot.log;
  let bot: Promise<string> | null = null;
  const botLogin = () => {
    bot ??= probot
      .auth()
      .then((octokit) => octokit.rest.apps.getAuthenticated())
      .then(({ data }) => `${AppSlug.parse(data).slug}[bot]`)
      .catch((error: unknown) => {
        bot = null;
        throw error;
      });
    return bot;
  };
  const portFor = async (installationId: number): Promise<GitHubPort> =>
    createOctokitPort(await probot.auth(installationId), await botLogin());

  const deps: AppDeps = {
    store,
    portFor,
    serverUrl: opts.serverUrl,
    log,
    newId: opts.newId ?? randomUUID,
  };
  const outbox = createOutboxWorker(deps);
  const inboxLoop = createInboxWorker(deps);
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

  probot.onAny(async (context) => {
    const routable = Routable.safeParse(context.payload);
    await store.recordDelivery({
      deliveryId: context.id,
      event: context.name,
      action: routable.data?.action ?? null,
      installationId: routable.data?.installation?.id ?? null,
      payload: context.payload,
    });
    inbox.kick();
  });
  const middleware = await createNodeMiddleware(() => {}, { probot, webhooksPath: WEBHOOK_PATH });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === "GET" && req.url === "/healthz") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: true }));
      return;
    }
    const handled = await middleware(req, res);
    if (!handled && !res.headersSent) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: "Not Found" }));
    }
  }

  async function settled(): Promise<void> {
    // Two rounds: writes can echo back as webhooks, which can queue more writes.
    for (let i = 0; i < 2; i++) {
      await inbox.idle();
      await outbox.idle();
    }
  }

  return {
    deps,
    inbox,
    outbox,
    handle,
    settled,
    async close() {
      await inbox.stop();
      await outbox.stop();
    },
  };
}
