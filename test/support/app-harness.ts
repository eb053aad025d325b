/**
 * The real LoopX app (Probot over HTTP on loopback) against the sandbox, on a store the test
 * chooses: what every app end-to-end scenario starts from.
 */

import { openStore, type Store } from "@loopx/store";
import { Octokit } from "@octokit/rest";
import { Probot, ProbotOctokit } from "probot";
import {
  createLoopxApp,
  type LoopxApp,
  type LoopxAppOptions,
  WEBHOOK_PATH,
} from "../../app/src/create-loopx-app.ts";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";
import { sharedPglite, truncateAll } from "./databases.ts";
import { listenFirst } from "./listen-first.ts";
import { requireChecks } from "./required-checks.ts";

export interface Harness {
  sandbox: Sandbox;
  app: LoopxApp;
  store: Store;
  repo: { owner: string; name: string; fullName: string; id: number };
  /** @octokit/rest as a person (a user token the sandbox honours). */
  as(login: string): Octokit;
  /** Delivers every queued webhook and drains the app's inbox and outbox until quiet. */
  settle(): Promise<void>;
  /** The app's base URL (http://127.0.0.1:port): webhooks, /healthz, /metrics. */
  appUrl: string;
  webhookSecret: string;
  /** Octokit authenticated as the app itself (JWT): /app/hook/deliveries and the like. */
  appOctokit(): Promise<InstanceType<typeof ProbotOctokit>>;
  /**
   * Stops the app (workers, HTTP server) and starts a new one on the same store and sandbox,
   * as a process restart would; `h.app` is the new one afterwards.
   */
  restart(app?: AppOverrides): Promise<void>;
  close(): Promise<void>;
}

/** What a scenario may change in how the app is built (retry timing, test hooks, limits). */
export type AppOverrides = Pick<
  LoopxAppOptions,
  "controls" | "contentLimits" | "outbox" | "wrapPort" | "dashboard" | "metrics"
>;

export const TICK_WORKFLOW = `name: loopx tick
run-name: "LoopX tick #\${{ inputs.goal }} \${{ inputs.nonce }}"
on:
  workflow_dispatch:
    inputs:
      goal:
        required: true
      slot:
        default: ""
      nonce:
        default: ""
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
  app?: AppOverrides;
  /** Let the sandbox run dispatched workflows (default: record them only). */
  runWorkflows?: boolean;
  /** Checks a ruleset requires on the default branch (default `["ci"]`, the sandbox CI's). */
  requiredChecks?: string[];
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const secret = "harness-webhook-secret";
  const sandbox = await createSandbox({ webhookSecret: secret });
  // Dispatched tick runs are recorded, not run: app scenarios check the dispatch itself, and
  // running the stub workflow would only spend processes (the tick scenarios run the real one).
  sandbox.runner.enabled = opts.runWorkflows ?? false;
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
  await requireChecks(sandbox, "acme/widgets", opts.requiredChecks ?? ["ci"]);
  const { app: appRecord, privateKey } = sandbox.createApp({ slug: "loopx" });
  if (!privateKey) throw new Error("the sandbox made no private key");

  const store = opts.store ?? (await openStore({ pglite: await sharedPglite() }));
  await store.migrate();
  await truncateAll(store);

  const boot = async (overrides: AppOverrides | undefined) => {
    const probot = new Probot({
      appId: appRecord.id,
      privateKey,
      secret,
      baseUrl: sandbox.gheUrl,
      Octokit: ProbotOctokit.defaults({ retry: { enabled: false }, throttle: { enabled: false } }),
      logLevel: "warn",
    });
    const { server, url: appUrl, serve } = await listenFirst();
    const app = await createLoopxApp({
      probot,
      store,
      serverUrl: sandbox.url,
      log: quietLog,
      tickApi: { issuer: sandbox.url, audience: appUrl },
      ...overrides,
    });
    serve(app.handle);
    sandbox.setWebhookUrl(`${appUrl}${WEBHOOK_PATH}`);
    const stop = async () => {
      await app.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    };
    return { app, appUrl, probot, stop };
  };
  let running = await boot(opts.app);
  sandbox.install(appRecord.id, "acme", ["acme/widgets"]);

  const settle = async () => {
    for (let round = 0; round < 4; round++) {
      await sandbox.settle();
      await harness.app.settled();
    }
  };

  const harness: Harness = {
    sandbox,
    app: running.app,
    appUrl: running.appUrl,
    webhookSecret: secret,
    appOctokit: () => running.probot.auth(),
    store,
    repo: { owner: "acme", name: "widgets", fullName: "acme/widgets", id: repoRecord.id },
    as: (login) =>
      new Octokit({
        baseUrl: sandbox.url,
        auth: sandbox.createUserToken(login),
        request: { retries: 0 },
      }),
    settle,
    async restart(overrides) {
      await running.stop();
      running = await boot(overrides ?? opts.app);
      harness.app = running.app;
      harness.appUrl = running.appUrl;
    },
    async close() {
      await running.stop();
      await sandbox.stop();
      if (!opts.store) await store.close();
    },
  };
  await settle();
  return harness;
}
