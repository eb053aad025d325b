/**
 * Several LoopX App replicas — each its own Probot, connection pool, workers and HTTP server —
 * on ONE PostgreSQL database and one sandbox, as an organisation would run them behind a
 * load balancer. Webhooks reach them through a round-robin splitter; tick API calls name the
 * replica they go to.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { openStore, type Store } from "@loopx/store";
import { Probot } from "probot";
import { createLoopxApp, type LoopxApp, WEBHOOK_PATH } from "../../../app/src/create-loopx-app.ts";
import { LoopxOctokit } from "../../../app/src/github/loopx-octokit.ts";
import {
  type ActionsClaims,
  createSandbox,
  type Sandbox,
} from "../../../packages/sandbox/src/index.ts";
import { TICK_WORKFLOW } from "../../support/app-harness.ts";

/** The replicas are one deployment: one public URL (behind the load balancer), one audience. */
const PUBLIC_URL = "https://loopx.replicas.example";

export interface Replica {
  app: LoopxApp;
  store: Store;
  url: string;
}

export interface Replicas {
  sandbox: Sandbox;
  replicas: Replica[];
  repo: { id: number; ownerId: number; fullName: string };
  /** Which replica each webhook delivery was sent to, in order. */
  routed: number[];
  token(runId: number, claims?: Partial<ActionsClaims>): Promise<string>;
  post(
    replica: number,
    path: string,
    body: unknown,
    token: string,
  ): Promise<{ status: number; body: unknown }>;
  settle(): Promise<void>;
  close(): Promise<void>;
}

const quietLog = { info: () => {}, warn: () => {}, error: (m: string) => console.error(m) };

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return `http://127.0.0.1:${address.port}`;
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(String(c)));
  return Buffer.concat(chunks);
}

export async function startReplicas(databaseUrl: string, count: number): Promise<Replicas> {
  const secret = "replicas-secret";
  const sandbox = await createSandbox({ webhookSecret: secret });
  sandbox.runner.enabled = false;
  const record = sandbox.createRepo("acme/widgets", {
    files: { "README.md": "# widgets\n", ".github/workflows/loopx-tick.yml": TICK_WORKFLOW },
    collaborators: { alice: "maintain", wendy: "write" },
  });
  const { app: appRecord, privateKey } = sandbox.createApp({ slug: "loopx" });
  if (!privateKey) throw new Error("the sandbox made no private key");

  const replicas: Replica[] = [];
  const servers: Server[] = [];
  for (let i = 0; i < count; i++) {
    const store = await openStore({ databaseUrl, maxConnections: 5 });
    if (i === 0) await store.migrate();
    const probot = new Probot({
      appId: appRecord.id,
      privateKey,
      secret,
      baseUrl: sandbox.gheUrl,
      Octokit: LoopxOctokit,
      logLevel: "warn",
    });
    const app = await createLoopxApp({
      probot,
      store,
      serverUrl: sandbox.url,
      log: quietLog,
      tickApi: {
        issuer: sandbox.url,
        audience: PUBLIC_URL,
        now: () => new Date(sandbox.clock.now()),
      },
    });
    const server = createServer((req, res) => void app.handle(req, res));
    servers.push(server);
    replicas.push({ app, store, url: await listen(server) });
  }

  // The load balancer: each delivery goes to the next replica in turn.
  const routed: number[] = [];
  let next = 0;
  const splitter = createServer((req, res) => {
    const target = next++ % count;
    routed.push(target);
    void readAll(req).then(async (body) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (typeof v === "string" && k !== "host" && k !== "content-length") headers[k] = v;
      }
      const answer = await fetch(`${replicas[target]?.url}${req.url ?? "/"}`, {
        method: req.method ?? "POST",
        headers,
        body,
      });
      res.writeHead(answer.status, {
        "content-type": answer.headers.get("content-type") ?? "text/plain",
      });
      res.end(await answer.text());
    });
  });
  servers.push(splitter);
  sandbox.setWebhookUrl(`${await listen(splitter)}${WEBHOOK_PATH}`);
  sandbox.install(appRecord.id, "acme", ["acme/widgets"]);

  const fullName = "acme/widgets";
  const settle = async () => {
    for (let round = 0; round < 4; round++) {
      await sandbox.settle();
      await Promise.all(replicas.map((r) => r.app.settled()));
    }
  };
  await settle();
  return {
    sandbox,
    replicas,
    repo: { id: record.id, ownerId: record.ownerId, fullName },
    routed,
    token(runId, claims = {}) {
      const ref = `${fullName}/.github/workflows/loopx-tick.yml@refs/heads/main`;
      return sandbox.oidc.mintIdToken({
        audience: PUBLIC_URL,
        claims: {
          repository: fullName,
          repository_id: String(record.id),
          repository_owner: "acme",
          repository_owner_id: String(record.ownerId),
          workflow_ref: ref,
          job_workflow_ref: ref,
          event_name: "workflow_dispatch",
          run_id: String(runId),
          run_attempt: "1",
          ...claims,
        },
      });
    },
    async post(replica, path, body, token) {
      const res = await fetch(`${replicas[replica]?.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    settle,
    async close() {
      for (const r of replicas) await r.app.close();
      for (const s of servers) {
        s.closeAllConnections();
        await new Promise((resolve) => s.close(resolve));
      }
      await sandbox.stop();
      for (const r of replicas) await r.store.close();
    },
  };
}
