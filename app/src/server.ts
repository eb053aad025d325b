/**
 * The app's HTTP surface besides webhooks: `GET /healthz` (200 while the store answers, 503
 * otherwise) and `GET /metrics`. A plain node server composes these with the tick API and
 * the webhook endpoint (see create-loopx-app.ts), and `listen` serves it.
 * Metrics list every installation's spend: on the public port they need the operator's
 * bearer token (LOOPX_METRICS_TOKEN), or they are served on a local port of their own.
 */
import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { OpsStore } from "@loopx/store";
import type { Logger } from "./deps.ts";
import { renderPrometheus } from "./metrics.ts";

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Who may read /metrics on the public port: holders of this bearer token; nobody when null. */
export interface MetricsAccess {
  token: string | null;
}

function bearerMatches(req: IncomingMessage, token: string): boolean {
  const given = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Answers /healthz and /metrics (as `metrics` allows); false for every other request. */
export async function serveOperations(
  req: IncomingMessage,
  res: ServerResponse,
  ops: OpsStore,
  log: Logger,
  metrics: MetricsAccess,
): Promise<boolean> {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (req.method !== "GET") return false;
  if (url.pathname === "/metrics" && metrics.token === null) {
    json(res, 404, {
      error:
        "/metrics is not served on this port: the operator sets LOOPX_METRICS_TOKEN (then send Authorization: Bearer <it>) or LOOPX_METRICS_PORT (a local port of its own).",
    });
    return true;
  }
  if (url.pathname === "/metrics" && metrics.token !== null && !bearerMatches(req, metrics.token)) {
    res.writeHead(401, { "content-type": "application/json", "www-authenticate": "Bearer" });
    res.end(
      JSON.stringify({ error: "/metrics needs Authorization: Bearer <LOOPX_METRICS_TOKEN>." }),
    );
    return true;
  }
  return serveHealthAndMetrics(req, res, ops, log);
}

/** /healthz and /metrics for anyone who reaches them: the local metrics port. */
export async function serveHealthAndMetrics(
  req: IncomingMessage,
  res: ServerResponse,
  ops: OpsStore,
  log: Logger,
): Promise<boolean> {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (req.method !== "GET") return false;
  if (url.pathname === "/healthz") {
    try {
      await ops.ping();
      json(res, 200, { ok: true });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error(`healthz: the store does not answer: ${message}`);
      json(res, 503, { ok: false, error: "the database does not answer; see the app's log" });
    }
    return true;
  }
  if (url.pathname === "/metrics") {
    try {
      const snapshot = await ops.snapshot();
      const wantsJson =
        url.searchParams.get("format") === "json" ||
        (req.headers.accept ?? "").includes("application/json");
      if (wantsJson) {
        json(res, 200, snapshot);
      } else {
        res.writeHead(200, { "content-type": "text/plain; version=0.0.4" });
        res.end(renderPrometheus(snapshot));
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error(`metrics: the store does not answer: ${message}`);
      json(res, 503, { error: "the database does not answer; see the app's log" });
    }
    return true;
  }
  return false;
}

export interface Listening {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/** Serves `handle` on host:port (0: any free port). */
export async function listen(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  port: number,
  host: string,
): Promise<Listening> {
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the HTTP server has no port");
  return {
    server,
    port: address.port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
