/**
 * `npm start` as a process: refuses to start with a clear list of what to set; with valid
 * settings it serves /healthz and webhooks against the sandbox, and shuts down cleanly on
 * SIGTERM.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Octokit } from "@octokit/rest";
import { afterAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";
import { TICK_WORKFLOW } from "../support/app-harness.ts";

function start(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  let out = "";
  const child = spawn(process.execPath, ["--import", "tsx", "app/src/run.ts"], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (b: Buffer) => {
    out += b.toString();
  });
  child.stderr?.on("data", (b: Buffer) => {
    out += b.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

describe("e2e: the app as a process (npm start)", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it("refuses to start without its settings, saying what to set", async () => {
    const p = start({});
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain("LoopX cannot start");
    expect(p.output()).toContain("APP_ID is not set");
    expect(p.output()).toContain("WEBHOOK_SECRET is not set");
    expect(p.output()).toContain("set LOOPX_DATA_DIR");
  });

  it("starts on PGlite with a data dir, serves /healthz and webhooks, stops on SIGTERM", async () => {
    const secret = "process-secret";
    const sandbox: Sandbox = await createSandbox({ webhookSecret: secret });
    cleanup.push(() => sandbox.stop());
    sandbox.createRepo("acme/widgets", {
      files: { ".github/workflows/loopx-tick.yml": TICK_WORKFLOW },
      collaborators: { alice: "maintain" },
    });
    const { app, privateKey } = sandbox.createApp({ slug: "loopx" });
    if (!privateKey) throw new Error("no key");
    const dataDir = await mkdtemp(join(tmpdir(), "loopx-process-"));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const metricsPort = await freePort();
    const p = start({
      APP_ID: String(app.id),
      // As pasted into a one-line env var.
      PRIVATE_KEY: privateKey.trim().replaceAll("\n", "\\n"),
      WEBHOOK_SECRET: secret,
      // The deployment's URL: the OIDC audience its tick API accepts.
      LOOPX_PUBLIC_URL: "https://loopx.example.com",
      LOOPX_DATA_DIR: dataDir,
      GITHUB_API_URL: sandbox.gheUrl,
      GITHUB_SERVER_URL: sandbox.url,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      LOOPX_POLL_INTERVAL_MS: "200",
      LOOPX_METRICS_PORT: String(metricsPort),
    });
    cleanup.push(async () => {
      if (p.child.exitCode === null) p.child.kill("SIGKILL");
    });

    const base = `http://127.0.0.1:${port}`;
    let health = 0;
    for (let i = 0; i < 600 && health !== 200; i++) {
      health = await fetch(`${base}/healthz`).then(
        (r) => r.status,
        () => 0,
      );
      if (health !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(health, p.output()).toBe(200);
    // Metrics live on their own loopback port; the public one does not serve them.
    const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((r) => r.text());
    expect(metrics).toContain("loopx_inbox_pending");
    expect((await fetch(`${base}/metrics`)).status).toBe(404);

    sandbox.setWebhookUrl(`${base}/api/github/webhooks`);
    sandbox.install(app.id, "acme", ["acme/widgets"]);
    const alice = new Octokit({
      baseUrl: sandbox.url,
      auth: sandbox.createUserToken("alice"),
      request: { retries: 0 },
    });
    const { data: issue } = await alice.rest.issues.create({
      owner: "acme",
      repo: "widgets",
      title: "Cache widget thumbnails",
      body: "They are slow.",
    });
    await alice.rest.issues.addLabels({
      owner: "acme",
      repo: "widgets",
      issue_number: issue.number,
      labels: ["loopx"],
    });
    let statusComments = 0;
    for (let i = 0; i < 100 && statusComments === 0; i++) {
      await sandbox.settle();
      statusComments = (
        await alice.rest.issues.listComments({
          owner: "acme",
          repo: "widgets",
          issue_number: issue.number,
        })
      ).data.length;
      if (statusComments === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(statusComments, p.output()).toBe(1);

    p.child.kill("SIGTERM");
    expect(await p.exited).toBe(0);
    expect(p.output()).not.toMatch(/cannot|failed/i);
  }, 120_000);
});
