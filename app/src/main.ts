import type { Store } from "@loopx/store";
import type { Probot } from "probot";
import { createLoopxApp, type LoopxApp, WEBHOOK_PATH } from "./create-loopx-app.ts";
import { githubSignIn } from "./dashboard/index.ts";
import type { Logger } from "./deps.ts";
import { listen } from "./server.ts";
import type { Settings } from "./settings.ts";
import { startWebhookProxy, type WebhookProxy } from "./webhook-proxy.ts";

export interface Running {
  app: LoopxApp;
  port: number;
  /** Stops taking requests, then stops the workers (in-flight work finishes). */
  close(): Promise<void>;
}

/** Serves the app on the configured port and starts its background work. */
export async function main(opts: {
  settings: Settings;
  store: Store;
  probot: Probot;
  log: Logger;
}): Promise<Running> {
  const { settings, store, probot, log } = opts;
  const app = await createLoopxApp({
    probot,
    store,
    serverUrl: settings.github.serverUrl,
    log,
    controls: settings.controls,
    dashboard:
      settings.dashboard === "readonly"
        ? {
            mode: "readonly",
            ...(settings.dashboardSignIn
              ? {
                  signIn: githubSignIn(settings.dashboardSignIn, settings.github, store.sessions),
                  publicUrl: settings.dashboardSignIn.publicUrl,
                }
              : {}),
          }
        : { mode: "off" },
    metrics: { token: settings.metrics.token },
    tickApi: {
      issuer: settings.oidc.issuer,
      audience: settings.oidc.audience,
      ...(settings.oidc.workflowRefs ? { allowedWorkflowRefs: settings.oidc.workflowRefs } : {}),
    },
  });
  const server = await listen(app.handle, settings.port, settings.host);
  // Metrics without a token: on loopback only, a port the operator's scraper reaches.
  const metricsPort = settings.metrics.port;
  const metrics =
    metricsPort === null ? null : await listen(app.serveMetrics, metricsPort, "127.0.0.1");
  let proxy: WebhookProxy | null = null;
  if (settings.webhookProxyUrl) {
    try {
      proxy = await startWebhookProxy({
        url: settings.webhookProxyUrl,
        target: `http://127.0.0.1:${server.port}${WEBHOOK_PATH}`,
        log,
      });
    } catch (error) {
      await server.close();
      await metrics?.close();
      throw error;
    }
  }
  await app.start({
    pollIntervalMs: settings.pollIntervalMs,
    reconcileIntervalMs: settings.reconcileIntervalMs,
    retentionMs: settings.retentionMs,
  });
  log.info(
    `LoopX listening on ${settings.host}:${server.port} (webhooks at ${WEBHOOK_PATH}, /healthz${settings.metrics.token ? ", /metrics with its token" : ""})${metrics ? `; /metrics on 127.0.0.1:${metrics.port}` : ""}; GitHub API ${settings.github.apiUrl}; store: ${store.kind}`,
  );
  return {
    app,
    port: server.port,
    async close() {
      await proxy?.stop();
      await server.close();
      await metrics?.close();
      await app.close();
    },
  };
}
