/**
 * What both harnesses start from: the sandbox with acme/widgets (ruleset, tick workflow,
 * collaborators) and the LoopX App registered on it, a clean store, and the real App served
 * over loopback HTTP with the harnesses' warning-collecting log.
 */
import { openStore, type Store } from "@loopx/store";
import { Octokit } from "@octokit/rest";
import { Probot } from "probot";
import {
  createLoopxApp,
  type LoopxApp,
  type LoopxAppOptions,
  WEBHOOK_PATH,
} from "../../app/src/create-loopx-app.ts";
import { LoopxOctokit } from "../../app/src/github/loopx-octokit.ts";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";
import { sharedPglite, truncateAll } from "./databases.ts";
import { harnessLog } from "./expected-warnings.ts";
import { listenFirst } from "./listen-first.ts";
import { requireChecks } from "./required-checks.ts";

export type Permission = "admin" | "maintain" | "write" | "triage" | "read";

export interface SandboxWithApp {
  sandbox: Sandbox;
  secret: string;
  repo: { owner: string; name: string; fullName: string; id: number; ownerId: number };
  appId: number;
  privateKey: string;
}

export async function sandboxWithApp(opts: {
  secret: string;
  files: Record<string, string>;
  collaborators: Record<string, Permission>;
  /** Checks a ruleset requires on main (the sandbox CI's is `ci`). */
  requiredChecks: string[];
  runWorkflows: boolean;
}): Promise<SandboxWithApp> {
  const sandbox = await createSandbox({ webhookSecret: opts.secret });
  sandbox.runner.enabled = opts.runWorkflows;
  const record = sandbox.createRepo("acme/widgets", {
    files: opts.files,
    collaborators: opts.collaborators,
  });
  await requireChecks(sandbox, "acme/widgets", opts.requiredChecks);
  const { app, privateKey } = sandbox.createApp({ slug: "loopx" });
  if (!privateKey) throw new Error("the sandbox made no private key");
  const repo = {
    owner: "acme",
    name: "widgets",
    fullName: "acme/widgets",
    id: record.id,
    ownerId: record.ownerId,
  };
  return { sandbox, secret: opts.secret, repo, appId: app.id, privateKey };
}

/** The store a harness runs on: the one given, or the worker's shared PGlite; emptied. */
export async function cleanStore(given: Store | undefined): Promise<Store> {
  const store = given ?? (await openStore({ pglite: await sharedPglite() }));
  await store.migrate();
  await truncateAll(store);
  return store;
}

export interface ServedApp {
  app: LoopxApp;
  appUrl: string;
  probot: Probot;
  stop(): Promise<void>;
}

/** The real App on loopback HTTP, the sandbox's webhooks pointed at it. */
export async function serveApp(
  s: SandboxWithApp,
  store: Store,
  options: (appUrl: string) => Omit<LoopxAppOptions, "probot" | "store" | "serverUrl">,
): Promise<ServedApp> {
  const probot = new Probot({
    appId: s.appId,
    privateKey: s.privateKey,
    secret: s.secret,
    baseUrl: s.sandbox.gheUrl,
    Octokit: LoopxOctokit,
    logLevel: "warn",
  });
  const { server, url: appUrl, serve } = await listenFirst();
  const app = await createLoopxApp({
    probot,
    store,
    serverUrl: s.sandbox.url,
    log: harnessLog,
    ...options(appUrl),
  });
  serve(app.handle);
  s.sandbox.setWebhookUrl(`${appUrl}${WEBHOOK_PATH}`);
  return {
    app,
    appUrl,
    probot,
    async stop() {
      await app.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Delivers every queued webhook and drains the App's inbox and outbox until quiet. */
export function settler(sandbox: Sandbox, app: () => LoopxApp): () => Promise<void> {
  return async () => {
    for (let round = 0; round < 4; round++) {
      await sandbox.settle();
      await app().settled();
    }
  };
}

/** @octokit/rest as a person, with a user token the sandbox honours. */
export function asUser(sandbox: Sandbox, login: string): Octokit {
  return new Octokit({
    baseUrl: sandbox.url,
    auth: sandbox.createUserToken(login),
    request: { retries: 0 },
  });
}

/** Files an issue as `author`, has `labeller` label it `loopx`, and settles: its number. */
export async function fileGoalIssue(
  sandbox: Sandbox,
  settle: () => Promise<void>,
  issue: { title: string; body: string; author: string; labeller?: string },
): Promise<number> {
  const { data } = await asUser(sandbox, issue.author).rest.issues.create({
    owner: "acme",
    repo: "widgets",
    title: issue.title,
    body: issue.body,
  });
  await asUser(sandbox, issue.labeller ?? issue.author).rest.issues.addLabels({
    owner: "acme",
    repo: "widgets",
    issue_number: data.number,
    labels: ["loopx"],
  });
  await settle();
  return data.number;
}
