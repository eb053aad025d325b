/**
 * The real LoopX app (Probot over HTTP on loopback) against the sandbox, on a store the test
 * chooses: what every app end-to-end scenario starts from.
 */

import type { Store } from "@loopx/store";
import type { Octokit } from "@octokit/rest";
import type { ProbotOctokit } from "probot";
import { inject } from "vitest";
import type { LoopxApp, LoopxAppOptions } from "../../app/src/create-loopx-app.ts";
import type { Sandbox } from "../../packages/sandbox/src/index.ts";
import {
  asUser,
  cleanStore,
  type Permission,
  sandboxWithApp,
  serveApp,
  settler,
} from "./app-on-sandbox.ts";
import { postgresStore } from "./databases.ts";

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

export interface HarnessOptions {
  files?: Record<string, string>;
  collaborators?: Record<string, Permission>;
  /** A store to use instead of the shared PGlite (e.g. real PostgreSQL). */
  store?: Store;
  /** Run on a fresh database on the real PostgreSQL server when the suite has one. */
  onPostgres?: boolean;
  app?: AppOverrides;
  /** Let the sandbox run dispatched workflows (default: record them only). */
  runWorkflows?: boolean;
  /** Checks a ruleset requires on the default branch (default `["ci"]`, the sandbox CI's). */
  requiredChecks?: string[];
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  // Dispatched tick runs are recorded, not run: app scenarios check the dispatch itself, and
  // running the stub workflow would only spend processes (the tick scenarios run the real one).
  const s = await sandboxWithApp({
    secret: "harness-webhook-secret",
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
    requiredChecks: opts.requiredChecks ?? ["ci"],
    runWorkflows: opts.runWorkflows ?? false,
  });
  const { sandbox } = s;
  const pg = opts.onPostgres && !opts.store ? await postgresStore(inject("pgUrl")) : null;
  const store = await cleanStore(opts.store ?? pg?.store);
  const boot = (overrides: AppOverrides | undefined) =>
    serveApp(s, store, (appUrl) => ({
      tickApi: { issuer: sandbox.url, audience: appUrl },
      ...overrides,
    }));
  let running = await boot(opts.app);
  sandbox.install(s.appId, "acme", ["acme/widgets"]);
  const settle = settler(sandbox, () => harness.app);

  const harness: Harness = {
    sandbox,
    app: running.app,
    appUrl: running.appUrl,
    webhookSecret: s.secret,
    appOctokit: () => running.probot.auth(),
    store,
    repo: { owner: "acme", name: "widgets", fullName: "acme/widgets", id: s.repo.id },
    as: (login) => asUser(sandbox, login),
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
      if (pg) await pg.close();
      else if (!opts.store) await store.close();
    },
  };
  await settle();
  return harness;
}
