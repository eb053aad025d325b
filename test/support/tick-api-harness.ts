/**
 * The real LoopX app and its tick API on one loopback HTTP server, against the sandbox (its
 * OIDC issuer mints the Actions tokens), on a store the test chooses. The tick API is
 * composed in front of the app's handler exactly as the lead wires it in production.
 */

import { addTodo, type GoalState } from "@loopx/core";
import { openStore, type Store } from "@loopx/store";
import { Octokit } from "@octokit/rest";
import { Probot, ProbotOctokit } from "probot";
import type { TickApiOptions } from "../../app/src/api/tick-api.ts";
import { createLoopxApp, type LoopxApp, WEBHOOK_PATH } from "../../app/src/create-loopx-app.ts";
import type { Logger } from "../../app/src/deps.ts";
import {
  type ActionsClaims,
  createSandbox,
  type Sandbox,
} from "../../packages/sandbox/src/index.ts";
import { TICK_WORKFLOW } from "./app-harness.ts";
import { sharedPglite, truncateAll } from "./databases.ts";
import { listenFirst } from "./listen-first.ts";
import { requireChecks } from "./required-checks.ts";

export interface TickHarness {
  sandbox: Sandbox;
  app: LoopxApp;
  store: Store;
  apiUrl: string;
  repo: { owner: string; name: string; fullName: string; id: number; ownerId: number };
  /** Files an issue as alice, labels it, waits for the goal, adds these todos. */
  startGoal(title: string, todos?: string[]): Promise<GoalState>;
  /** An Actions ID token for the tick workflow of acme/widgets, run `runId`, unless overridden. */
  token(
    runId: number,
    claims?: Partial<ActionsClaims>,
    opts?: { audience?: string; ttlSeconds?: number },
  ): Promise<string>;
  post(
    path: string,
    body: unknown,
    token: string | null,
  ): Promise<{ status: number; body: unknown }>;
  /** GitHub API requests the sandbox served from index `from` on (the OIDC issuer's JWKS aside). */
  requestsSince(from: number): number;
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** An Actions ID token for run `runId` of the repository's tick workflow, as the runner mints it. */
export function mintTickToken(
  sandbox: Sandbox,
  repo: { fullName: string; id: number; ownerId: number },
  runId: number,
  claims: Partial<ActionsClaims> = {},
  opts: { audience: string; ttlSeconds?: number },
): Promise<string> {
  const workflowRef = `${repo.fullName}/.github/workflows/loopx-tick.yml@refs/heads/main`;
  return sandbox.oidc.mintIdToken({
    audience: opts.audience,
    ...(opts.ttlSeconds !== undefined ? { ttlSeconds: opts.ttlSeconds } : {}),
    claims: {
      repository: repo.fullName,
      repository_id: String(repo.id),
      repository_owner: repo.fullName.split("/")[0] ?? "",
      repository_owner_id: String(repo.ownerId),
      workflow_ref: workflowRef,
      job_workflow_ref: workflowRef,
      event_name: "workflow_dispatch",
      run_id: String(runId),
      run_attempt: "1",
      ...claims,
    },
  });
}

/** POSTs JSON (or a raw string) with an optional bearer token; the answer's status and JSON. */
export async function postJson(
  url: string,
  body: unknown,
  token: string | null,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const quietLog = { info: () => {}, warn: () => {}, error: (m: string) => console.error(m) };

export async function startTickHarness(
  opts: {
    store?: Store;
    api?: Partial<TickApiOptions>;
    log?: Logger;
    /** Checks a ruleset requires on the default branch (default `["ci"]`, the sandbox CI's). */
    requiredChecks?: string[];
  } = {},
): Promise<TickHarness> {
  const secret = "tick-harness-secret";
  const sandbox = await createSandbox({ webhookSecret: secret });
  // Runs stay queued: the tests play the workflow's jobs themselves, call by call.
  sandbox.runner.enabled = false;
  const record = sandbox.createRepo("acme/widgets", {
    files: { "README.md": "# widgets\n", ".github/workflows/loopx-tick.yml": TICK_WORKFLOW },
    collaborators: { alice: "maintain" },
  });
  await requireChecks(sandbox, "acme/widgets", opts.requiredChecks ?? ["ci"]);
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
  const { server, url: base, serve } = await listenFirst();
  const app = await createLoopxApp({
    probot,
    store,
    serverUrl: sandbox.url,
    log: opts.log ?? quietLog,
    tickApi: {
      issuer: sandbox.url,
      audience: base,
      now: () => new Date(sandbox.clock.now()),
      ...opts.api,
    },
  });
  serve(app.handle);
  sandbox.setWebhookUrl(`${base}${WEBHOOK_PATH}`);
  sandbox.install(appRecord.id, "acme", ["acme/widgets"]);

  const settle = async () => {
    for (let round = 0; round < 4; round++) {
      await sandbox.settle();
      await app.settled();
    }
  };
  await settle();
  const alice = new Octokit({
    baseUrl: sandbox.url,
    auth: sandbox.createUserToken("alice"),
    request: { retries: 0 },
  });
  const fullName = "acme/widgets";

  return {
    sandbox,
    app,
    store,
    apiUrl: base,
    repo: { owner: "acme", name: "widgets", fullName, id: record.id, ownerId: record.ownerId },
    async startGoal(title, todos = []) {
      const { data } = await alice.rest.issues.create({
        owner: "acme",
        repo: "widgets",
        title,
        body: "Do it.",
      });
      await alice.rest.issues.addLabels({
        owner: "acme",
        repo: "widgets",
        issue_number: data.number,
        labels: ["loopx"],
      });
      await settle();
      let state = await store.findGoalByIssue(record.id, data.number);
      if (!state) throw new Error(`no goal for #${data.number}`);
      for (const todo of todos) {
        const applied = await store.apply(state.goal.id, (s, now) =>
          addTodo(
            s,
            { title: todo },
            {
              actor: { kind: "human", login: "alice", trusted: true },
              now,
              newId: () => crypto.randomUUID(),
            },
          ),
        );
        if (!applied.ok) throw new Error(applied.refusal.message);
        state = applied.state;
      }
      await settle();
      return state;
    },
    token: (runId, claims = {}, tokenOpts = {}) =>
      mintTickToken(sandbox, { fullName, id: record.id, ownerId: record.ownerId }, runId, claims, {
        audience: base,
        ...tokenOpts,
      }),
    post: (path, body, token) => postJson(`${base}${path}`, body, token),
    requestsSince: (from) =>
      sandbox
        .requests()
        .slice(from)
        .filter((r) => !r.path.startsWith("/.well-known/")).length,
    settle,
    async close() {
      await app.close();
      await new Promise((resolve) => server.close(resolve));
      await sandbox.stop();
      if (!opts.store) await store.close();
    },
  };
}
