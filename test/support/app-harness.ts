/**
 * The real LoopX app (Probot over HTTP on loopback) against the sandbox, on a store the test
 * chooses: what every app end-to-end scenario starts from.
 */
import { createServer, type Server } from "node:http";
import { openStore, type Store } from "@loopx/store";
import { Octokit } from "@octokit/rest";
import { Probot, ProbotOctokit } from "probot";
import { createLoopxApp, type LoopxApp, WEBHOOK_PATH } from "../../app/src/create-loopx-app.ts";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";
import { sharedPglite, truncateAll } from "./databases.ts";

export interface Harness {
  sandbox: Sandbox;
  app: LoopxApp;
  store: Store;
  repo: { owner: string; name: string; fullName: string; id: number };
  /** @octokit/rest as a person (a user token the sandbox honours). */
  as(login: string): Octokit;
  /** Delivers every queued webhook and drains the app's inbox and outbox until quiet. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export const TICK_WORKFLOW = `name: loopx tick
on:
  workflow_dispatch:
    inputs:
      goal:
        required: true
jobs:
  ask:
    runs-on: ubuntu-latest
    steps:
      - run: echo "tick for goal \${{ inputs.goal }}"
`;

const quietLog = { info: () => {}, warn: () => {}, error: (m: string) => console.error(m) };

export interface HarnessOptions {
  files?: Record<string, string>;
  collaborators?: Record<string, "admin" | "maintain" | "write" | "triage" | "read">;
  /** A store to use instead of the shared PGlite (e.g. real PostgreSQL). */
  store?: Store;
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const secret = "harness-webhook-secret";
  const sandbox = await createSandbox({ webhookSecret: secret });
  const repoRecord = sandbox.createRepo("acme/widgets", {
    files: {
      "README.md": "# widgets\n",
      ".github/workflows/loopx-tick.yml": TICK_WORKFLOW,
      ...opts.files,
    },
    collaborators: opts.collaborators ?? {
      alice: "maintain",
      wendy: "write",
      tom: "triage",
      rita: "read",
    },
  });
  const { app: appRecord, privateKey } = sandbox.createApp({ slug: "loopx" });
  if (!privateKey) throw new Error("the sandbox made no private key");

  const store = opts.store ?? (await openStore({ pglite: await sharedPglite() }));
  await store.migrate();
  await truncateAll(store);

  const probot = new Probot({
    appId: appRecord.id,
    privateKey,
    secret,
    baseUrl: sandbox.gheUrl,
    Octokit: ProbotOctokit.defaults({ retry: { enabled: false }, throttle: { enabled: false } }),
    logLevel: "warn",
  });
  const app = await createLoopxApp({ probot, store, serverUrl: sandbox.url, log: quietLog });
  const server: Server = createServer((req, res) => void app.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the app server has no port");
  sandbox.setWebhookUrl(`http://127.0.0.1:${address.port}${WEBHOOK_PATH}`);
  sandbox.install(appRecord.id, "acme", ["acme/widgets"]);

  const settle = async () => {
    for (let round = 0; round < 4; round++) {
      await sandbox.settle();
      await app.settled();
    }
  };
  await settle();

  return {
    sandbox,
    app,
    store,
    repo: { owner: "acme", name: "widgets", fullName: "acme/widgets", id: repoRecord.id },
    as: (login) =>
      new Octokit({
        baseUrl: sandbox.url,
        auth: sandbox.createUserToken(login),
        request: { retries: 0 },
      }),
    settle,
    async close() {
      await app.close();
      await new Promise((resolve) => server.close(resolve));
      await sandbox.stop();
      if (!opts.store) await store.close();
    },
  };
}
