/**
 * The real LoopX app and its tick API on one loopback HTTP server, against the sandbox (its
 * OIDC issuer mints the Actions tokens), on a store the test chooses. The tick API is
 * composed in front of the app's handler exactly as the lead wires it in production.
 */

import { addTodo, type GoalState } from "@loopx/core";
import type { Store } from "@loopx/store";
import type { Octokit } from "@octokit/rest";
import { inject } from "vitest";
import type { TickApiOptions } from "../../app/src/api/tick-api.ts";
import type { LoopxApp } from "../../app/src/create-loopx-app.ts";
import type { Logger } from "../../app/src/deps.ts";
import { demoDashboard } from "../../packages/demo/src/dashboard/demo-dashboard.ts";
import type { ActionsClaims, Sandbox } from "../../packages/sandbox/src/index.ts";
import { TICK_WORKFLOW } from "./app-harness.ts";
import {
  asUser,
  cleanStore,
  fileGoalIssue,
  sandboxWithApp,
  serveApp,
  settler,
} from "./app-on-sandbox.ts";
import { postgresStore } from "./databases.ts";
import { allowWarning } from "./expected-warnings.ts";

export interface TickHarness {
  sandbox: Sandbox;
  app: LoopxApp;
  store: Store;
  apiUrl: string;
  repo: { owner: string; name: string; fullName: string; id: number; ownerId: number };
  /** @octokit/rest as a person (a user token the sandbox honours). */
  as(login: string): Octokit;
  /** Files an issue (as alice unless `author`), has it labelled `loopx`, settles: its number. */
  fileIssue(issue: {
    title: string;
    body: string;
    author?: string;
    labeller?: string;
  }): Promise<number>;
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

/**
 * A run id the test made up (it plays the jobs itself): the App rightly cannot read that run's
 * jobs and charges the tick's cap, saying so. That warning, for that run, is known.
 */
export function allowUnknownRun(sandbox: Sandbox, runId: number): void {
  if (sandbox.store.workflowRuns.has(runId)) return;
  allowWarning(new RegExp(`^runner minutes of run ${runId} \\(charging the tick's cap\\): `));
}

export async function startTickHarness(
  opts: {
    store?: Store;
    /** Run on a fresh database on the real PostgreSQL server when the suite has one. */
    onPostgres?: boolean;
    api?: Partial<TickApiOptions>;
    log?: Logger;
    /** Checks a ruleset requires on the default branch (default `["ci"]`, the sandbox CI's). */
    requiredChecks?: string[];
    /** Serve the dashboard as the loopback demo does: gate buttons acting as alice. */
    demoDashboard?: boolean;
  } = {},
): Promise<TickHarness> {
  // Runs stay queued: the tests play the workflow's jobs themselves, call by call.
  const s = await sandboxWithApp({
    secret: "tick-harness-secret",
    files: { "README.md": "# widgets\n", ".github/workflows/loopx-tick.yml": TICK_WORKFLOW },
    collaborators: { alice: "maintain" },
    requiredChecks: opts.requiredChecks ?? ["ci"],
    runWorkflows: false,
  });
  const { sandbox, repo } = s;
  const pg = opts.onPostgres && !opts.store ? await postgresStore(inject("pgUrl")) : null;
  const store = await cleanStore(opts.store ?? pg?.store);
  const owner = { login: "alice", token: sandbox.createUserToken("alice"), apiUrl: sandbox.url };
  const served = await serveApp(s, store, (audience) => ({
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.demoDashboard
      ? {
          dashboard: {
            mode: "open" as const,
            extension: demoDashboard({ store, owner, webUrl: sandbox.url }),
          },
        }
      : {}),
    tickApi: {
      issuer: sandbox.url,
      audience,
      now: () => new Date(sandbox.clock.now()),
      ...opts.api,
    },
  }));
  const { app, appUrl: base } = served;
  sandbox.install(s.appId, "acme", ["acme/widgets"]);
  const settle = settler(sandbox, () => app);
  await settle();

  return {
    sandbox,
    app,
    store,
    apiUrl: base,
    repo,
    as: (login) => asUser(sandbox, login),
    fileIssue: (issue) => fileGoalIssue(sandbox, settle, { author: "alice", ...issue }),
    async startGoal(title, todos = []) {
      const number = await fileGoalIssue(sandbox, settle, {
        title,
        body: "Do it.",
        author: "alice",
      });
      let state = await store.findGoalByIssue(repo.id, number);
      if (!state) throw new Error(`no goal for #${number}`);
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
    token: (runId, claims = {}, tokenOpts = {}) => {
      allowUnknownRun(sandbox, runId);
      return mintTickToken(sandbox, repo, runId, claims, {
        audience: base,
        ...tokenOpts,
      });
    },
    post: (path, body, token) => postJson(`${base}${path}`, body, token),
    requestsSince: (from) =>
      sandbox
        .requests()
        .slice(from)
        .filter((r) => !r.path.startsWith("/.well-known/")).length,
    settle,
    async close() {
      await served.stop();
      await sandbox.stop();
      if (pg) await pg.close();
      else if (!opts.store) await store.close();
    },
  };
}
