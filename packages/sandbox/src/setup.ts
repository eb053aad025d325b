import { generateKeyPairSync } from "node:crypto";
import { newToken, TOKEN_TTL_MS } from "./auth.ts";
import type { Clock } from "./clock.ts";
import type { GitRoot } from "./git/root.ts";
import type { Store } from "./state/store.ts";
import type { AppRecord, Installation, PermissionLevel, Repo, Role, User } from "./state/types.ts";
import type { WebhookBus } from "./webhooks/bus.ts";

export const DEFAULT_APP_PERMISSIONS: Record<string, PermissionLevel> = {
  actions: "write",
  checks: "write",
  contents: "write",
  issues: "write",
  metadata: "read",
  pull_requests: "write",
  statuses: "read",
};

export interface RepoFields {
  private?: boolean;
  defaultBranch?: string;
  /** The initial commit's files (path → text); a README when absent. */
  files?: Record<string, string>;
  collaborators?: Record<string, Role>;
  description?: string;
}

export interface AppFields {
  slug?: string;
  name?: string;
  id?: number;
  publicKeyPem?: string;
  permissions?: Record<string, PermissionLevel>;
  events?: string[];
  owner?: string;
  webhookSecret?: string;
}

/** How tests and the demo populate the sandbox: users, repositories, apps, installations, PATs. */
export function setupApi(deps: {
  store: Store;
  clock: Clock;
  bus: WebhookBus;
  root: GitRoot;
  webhookSecret: string | undefined;
}) {
  const { store, clock, bus, root } = deps;
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
  const repoByFullName = (fullName: string): Repo => {
    const [owner = "", name = ""] = fullName.split("/");
    return store.repoByName(owner, name);
  };

  return {
    createUser,
    repoByFullName,
    /** Creates a repository: a real bare git repository with `files` as its initial commit. */
    createRepo(fullName: string, fields: RepoFields = {}): Repo {
      const [ownerLogin = "", name = ""] = fullName.split("/");
      const owner = createUser(ownerLogin);
      const branch = fields.defaultBranch ?? "main";
      const now = clock.now();
      const files = fields.files ?? { "README.md": `# ${name}\n` };
      const who = {
        name: owner.login,
        email: `${owner.id}+${owner.login}@users.noreply.github.com`,
        at: now,
      };
      const { gitDir, head } = root.create(`${owner.login}/${name}`, branch, files, who);
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
        branches: new Map([[branch, head]]),
        gitDir,
        forkOfId: null,
        protection: new Map(),
        rulesets: [],
      };
      for (const [login, role] of Object.entries(fields.collaborators ?? {}))
        repo.collaborators.set(createUser(login).id, role);
      store.repos.set(repo.id, repo);
      return repo;
    },
    /** Registers a GitHub App; generates its RSA key pair unless a public key is given. */
    createApp(fields: AppFields = {}): { app: AppRecord; privateKey: string | null } {
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
        webhookSecret: fields.webhookSecret ?? deps.webhookSecret ?? "sandbox-secret",
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
    /** An installation access token with the installation's permissions and repositories. */
    installationToken(installationId: number): string {
      const installation = store.installations.get(installationId);
      if (!installation) throw new Error(`sandbox: no installation ${installationId}`);
      const token = newToken("ghs");
      store.tokens.set(token, {
        token,
        kind: "installation",
        installationId,
        userId: store.apps.get(installation.appId)?.botUserId ?? 0,
        expiresAt: clock.now() + TOKEN_TTL_MS,
        permissions: { ...installation.permissions },
        repositoryIds: [...installation.repositoryIds],
      });
      return token;
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
  };
}
