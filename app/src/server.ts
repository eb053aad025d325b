/**
 * The app's HTTP surface besides webhooks: `GET /healthz` (200 while the store answers, 503
 * otherwise) and `GET /metrics`. Probot 14 has no router, so a plain node server composes
 * these with Probot's middleware (see create-loopx-app.ts), and `listen` serves it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { OpsStore } from "@loopx/store";
import type { Logger } from "./deps.ts";
import { renderPrometheus } from "./metrics.ts";

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Answers /healthz and /metrics; false for every other request. */
export async function serveOperations(
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
