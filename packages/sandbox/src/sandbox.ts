import { generateKeyPairSync } from "node:crypto";
import type { Server } from "node:http";
import { newToken, TOKEN_TTL_MS } from "./auth.ts";
import { type Clock, createClock } from "./clock.ts";
import { Faults, type RouteFault } from "./faults.ts";
import { OidcIssuer } from "./oidc.ts";
import { Renderer } from "./render/core.ts";
import { renderComment, renderIssue } from "./render/issues.ts";
import { renderPull } from "./render/pulls.ts";
import { type Route, Router } from "./router.ts";
import { actionsRoutes, announceRun, workflowsOf } from "./routes/actions.ts";
import { appRoutes } from "./routes/app.ts";
import { checkRoutes } from "./routes/checks.ts";
import { commentRoutes } from "./routes/comments.ts";
import type { RouteContext } from "./routes/context.ts";
import { deliveryRoutes } from "./routes/deliveries.ts";
import { issueRoutes } from "./routes/issues.ts";
import { pullRoutes } from "./routes/pulls.ts";
import { repoRoutes } from "./routes/repos.ts";
import { reviewRoutes } from "./routes/reviews.ts";
import { subIssueRoutes } from "./routes/sub-issues.ts";
import { type RequestLogEntry, startServer } from "./server.ts";
import { Store } from "./state/store.ts";
import type {
  AppRecord,
  Installation,
  PermissionLevel,
  Repo,
  Role,
  User,
  WorkflowRun,
} from "./state/types.ts";
import { WebhookBus } from "./webhooks/bus.ts";
import { DeliveryLog, type WebhookFault } from "./webhooks/deliveries.ts";

export interface SandboxOptions {
  /** 0 (default) picks a free port on 127.0.0.1. */
  port?: number;
  webhookUrl?: string;
  /** Secret the default app signs webhooks with. */
  webhookSecret?: string;
  clock?: Clock;
  /** Content-creation secondary limits (80/min, 500/h); on by default. */
  secondaryLimits?: boolean;
}

export const DEFAULT_APP_PERMISSIONS: Record<string, PermissionLevel> = {
  actions: "write",
  checks: "write",
  contents: "write",
  issues: "write",
  metadata: "read",
  pull_requests: "write",
};

export type Sandbox = Awaited<ReturnType<typeof createSandbox>>;

/** Starts a local GitHub on 127.0.0.1. See the package README. */
export async function createSandbox(options: SandboxOptions = {}) {
  const clock = options.clock ?? createClock();
  const store = new Store();
  let url = "";
  const render = new Renderer(store, "", "");
  const deliveries = new DeliveryLog(clock);
  const bus = new WebhookBus(render, deliveries, { webhookUrl: options.webhookUrl ?? null });
  const ctx: RouteContext = { store, render, clock, bus };
  const router = new Router();
  router.add(
    ...appRoutes(ctx),
    ...repoRoutes(ctx),
    ...issueRoutes(ctx),
    ...commentRoutes(ctx),
    ...subIssueRoutes(ctx),
    ...pullRoutes(ctx),
    ...reviewRoutes(ctx),
    ...checkRoutes(ctx),
    ...actionsRoutes(ctx),
    ...deliveryRoutes(ctx),
  );
  const faults = new Faults(clock);
  faults.secondaryLimits = options.secondaryLimits ?? true;
  const oidc = await OidcIssuer.create(clock, () => url);
  const requestLog: RequestLogEntry[] = [];

  const repoByFullName = (fullName: string): Repo => {
    const [owner = "", name = ""] = fullName.split("/");
    return store.repoByName(owner, name);
  };
  const issueJson = (fullName: string, number: number) => {
    const repo = repoByFullName(fullName);
    const issue = store.issueByNumber(repo.id, number);
    return {
      ...renderIssue(render, issue),
      comments_list: store.commentsOf(repo.id, number).map((c) => renderComment(render, c)),
      sub_issue_ids: [...issue.subIssueIds],
    };
  };
  const inspect = (path: string): unknown => {
    const [kind, ...rest] = path.split("/");
    if (kind === "requests")
      return requestLog.map(({ method, path: p, route, status, unsupported }) => ({
        method,
        path: p,
        route,
        status,
        unsupported,
      }));
    if (kind === "deliveries")
      return deliveries.all.map(({ id, guid, event, action, statusCode, redelivery, dropped }) => ({
        id,
        guid,
        event,
        action,
        statusCode,
        redelivery,
        dropped,
      }));
    if (kind === "issues" && rest.length === 3)
      return issueJson(`${rest[0]}/${rest[1]}`, Number(rest[2]));
    return undefined;
  };

  const server: Server = await startServer(
    { store, clock, router, faults, oidc, log: requestLog, inspect },
    options.port ?? 0,
  );
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("sandbox: no TCP address");
  url = `http://127.0.0.1:${address.port}`;
  Object.assign(render, { api: url, web: `${url}/_html` });

  const createUser = (login: string, fields: { type?: User["type"]; name?: string } = {}): User => {
    const existing = store.userByLogin(login);
    if (existing) return existing;
    const user: User = {
      id: store.id(),
      login,
      type: fields.type ?? "User",
      name: fields.name ?? null,
    };
    store.users.set(user.id, user);
    return user;
  };

  const sandbox = {
    url,
    /** Base URL for GHE-style clients (Probot's GHE_HOST): the same API under /api/v3. */
    gheUrl: `${url}/api/v3`,
    clock,
    oidc,
    store,
    routes: router.routes as readonly Route[],
    /** Every webhook payload emitted, in order (for fidelity tests). */
    emitted: bus.emitted,
    faults: {
      route: (fault: RouteFault) => faults.add(fault),
      webhook: (fault: WebhookFault) => deliveries.addFault(fault),
      clear: () => {
        faults.clear();
        deliveries.clearFaults();
      },
      set secondaryLimits(on: boolean) {
        faults.secondaryLimits = on;
      },
      get secondaryLimits() {
        return faults.secondaryLimits;
      },
    },
    setWebhookUrl(next: string | null) {
      bus.config.webhookUrl = next;
    },
    createUser,
    createRepo(
      fullName: string,
      fields: {
        private?: boolean;
        defaultBranch?: string;
        files?: Record<string, string>;
        collaborators?: Record<string, Role>;
        description?: string;
      } = {},
    ): Repo {
      const [ownerLogin = "", name = ""] = fullName.split("/");
      const owner = createUser(ownerLogin);
      const branch = fields.defaultBranch ?? "main";
      const now = clock.now();
      const repo: Repo = {
        id: store.id(),
        ownerId: owner.id,
        name,
        description: fields.description ?? null,
        private: fields.private ?? true,
        defaultBranch: branch,
        createdAt: now,
        updatedAt: now,
        pushedAt: now,
        nextNumber: 1,
        collaborators: new Map(),
        labels: new Map(),
        branches: new Map([[branch, store.sha(`init:${fullName}`)]]),
        files: new Map([[branch, new Map(Object.entries(fields.files ?? {}))]]),
      };
      for (const [login, role] of Object.entries(fields.collaborators ?? {}))
        repo.collaborators.set(createUser(login).id, role);
      store.repos.set(repo.id, repo);
      return repo;
    },
    /** Registers a GitHub App; generates its RSA key pair unless a public key is given. */
    createApp(
      fields: {
        slug?: string;
        name?: string;
        id?: number;
        publicKeyPem?: string;
        permissions?: Record<string, PermissionLevel>;
        events?: string[];
        owner?: string;
        webhookSecret?: string;
      } = {},
    ): { app: AppRecord; privateKey: string | null } {
      let publicKeyPem = fields.publicKeyPem;
      let privateKeyPem: string | null = null;
      if (!publicKeyPem) {
        const pair = generateKeyPairSync("rsa", {
          modulusLength: 2048,
          publicKeyEncoding: { type: "spki", format: "pem" },
          privateKeyEncoding: { type: "pkcs8", format: "pem" },
        });
        publicKeyPem = pair.publicKey;
        privateKeyPem = pair.privateKey;
      }
      const slug = fields.slug ?? "loopx";
      const bot = createUser(`${slug}[bot]`, { type: "Bot" });
      const app: AppRecord = {
        id: fields.id ?? store.id(),
        slug,
        name: fields.name ?? slug,
        clientId: `Iv1.${slug}`,
        ownerId: createUser(fields.owner ?? "sandbox-owner", { type: "Organization" }).id,
        publicKeyPem,
        privateKeyPem,
        webhookSecret: fields.webhookSecret ?? options.webhookSecret ?? "sandbox-secret",
        permissions: { ...(fields.permissions ?? DEFAULT_APP_PERMISSIONS) },
        events: fields.events ?? [],
        botUserId: bot.id,
        createdAt: clock.now(),
      };
      store.apps.set(app.id, app);
      return { app, privateKey: privateKeyPem };
    },
    /** Installs an app on an account for some of its repositories; announces `installation.created`. */
    install(
      appId: number,
      account: string,
      repositories: string[],
      sender = account,
    ): Installation {
      const app = store.apps.get(appId);
      if (!app) throw new Error(`sandbox: no app ${appId}`);
      const installation: Installation = {
        id: store.id(),
        appId,
        accountId: createUser(account).id,
        repositoryIds: repositories.map((r) => repoByFullName(r).id),
        permissions: { ...app.permissions },
        events: [...app.events],
        createdAt: clock.now(),
      };
      store.installations.set(installation.id, installation);
      bus.emitInstallation(installation, "created", createUser(sender));
      return installation;
    },
    /** A personal access token acting as `login` (how tests play a human). */
    createUserToken(login: string): string {
      const token = newToken("ghp");
      store.tokens.set(token, {
        token,
        kind: "user",
        installationId: null,
        userId: createUser(login).id,
        expiresAt: clock.now() + 365 * 24 * TOKEN_TTL_MS,
        permissions: {},
        repositoryIds: null,
      });
      return token;
    },
    /** Writes files to a branch (creating it from the default branch); PRs on it get `synchronize`. */
    push(
      fullName: string,
      branch: string,
      files: Record<string, string | null>,
      pusher?: string,
    ): string {
      const repo = repoByFullName(fullName);
      const current = new Map(repo.files.get(branch) ?? repo.files.get(repo.defaultBranch) ?? []);
      for (const [path, text] of Object.entries(files)) {
        if (text === null) current.delete(path);
        else current.set(path, text);
      }
      const before = repo.branches.get(branch) ?? "0".repeat(40);
      const sha = store.sha(`push:${fullName}:${branch}`);
      repo.files.set(branch, current);
      repo.branches.set(branch, sha);
      repo.pushedAt = clock.now();
      const sender = createUser(pusher ?? store.user(repo.ownerId).login);
      for (const pull of store.pulls.values()) {
        if (pull.repoId !== repo.id || pull.headRef !== branch || pull.merged) continue;
        pull.headSha = sha;
        pull.mergeable = null;
        bus.emit("pull_request", repo, sender, {
          action: "synchronize",
          number: pull.number,
          before,
          after: sha,
          pull_request: renderPull(render, pull, "webhook"),
        });
      }
      return sha;
    },
    /** Marks a PR as conflicting (mergeable false, mergeable_state dirty) or clean. */
    setConflict(fullName: string, number: number, conflicting: boolean) {
      const pull = store.pull(repoByFullName(fullName).id, number);
      pull.conflicting = conflicting;
      pull.mergeable = null;
    },
    workflows: (fullName: string) => workflowsOf(ctx, repoByFullName(fullName)),
    /** Moves a workflow run on (the runner's job until it exists): in_progress, then completed. */
    updateRun(
      runId: number,
      status: "in_progress" | "completed",
      conclusion: string | null = null,
    ): WorkflowRun {
      const run = store.workflowRuns.get(runId);
      if (!run) throw new Error(`sandbox: no run ${runId}`);
      run.status = status;
      run.conclusion = status === "completed" ? (conclusion ?? "success") : null;
      run.updatedAt = clock.now();
      announceRun(ctx, run, status, store.user(run.actorId));
      return run;
    },
    onDispatch(fn: (run: WorkflowRun) => void) {
      ctx.onDispatch = fn;
    },
    // Inspection.
    requests: (): readonly RequestLogEntry[] => requestLog,
    unsupported: () => requestLog.filter((r) => r.unsupported),
    contentCreating: () => requestLog.filter((r) => r.contentCreating && r.status < 400).length,
    contentCounts: () => faults.contentCounts(),
    issue: issueJson,
    pull: (fullName: string, number: number) =>
      renderPull(render, store.pull(repoByFullName(fullName).id, number)),
    deliveries: () => deliveries.all,
    /** Waits until every webhook queued so far has been attempted. */
    settle: () => deliveries.settle(),
    async stop(): Promise<void> {
      await deliveries.settle();
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
    },
  };
  return sandbox;
}
