import { randomBytes } from "node:crypto";
import { importSPKI, jwtVerify } from "jose";
import type { Clock } from "./clock.ts";
import { HttpError, notFound } from "./http-error.ts";
import type { Store } from "./state/store.ts";
import type {
  AppRecord,
  Installation,
  PermissionLevel,
  Repo,
  Role,
  Token,
  User,
} from "./state/types.ts";

export type Principal =
  | { kind: "anonymous" }
  | { kind: "app"; app: AppRecord }
  | { kind: "installation"; token: Token; installation: Installation; app: AppRecord; user: User }
  | { kind: "user"; token: Token; user: User }
  /** A workflow job's GITHUB_TOKEN, acting as github-actions[bot]. */
  | { kind: "job"; token: Token; user: User };

export const TOKEN_TTL_MS = 60 * 60 * 1000;

const badCredentials = () => new HttpError(401, "Bad credentials");

export function newToken(prefix: "ghs" | "ghp"): string {
  return `${prefix}_${randomBytes(27).toString("base64url").replace(/[-_]/g, "A").slice(0, 36)}`;
}

/** Reads the Authorization header the way GitHub does: `token X`, `Bearer X`, or an app JWT. */
export async function authenticate(
  header: string | undefined,
  store: Store,
  clock: Clock,
): Promise<Principal> {
  if (!header) return { kind: "anonymous" };
  const match = /^(?:token|bearer)\s+(\S+)$/i.exec(header.trim());
  if (!match?.[1]) throw badCredentials();
  const credential = match[1];
  if (credential.split(".").length === 3 && credential.startsWith("eyJ")) {
    return { kind: "app", app: await verifyAppJwt(credential, store, clock) };
  }
  const token = store.tokens.get(credential);
  if (!token || token.expiresAt <= clock.now()) throw badCredentials();
  if (token.kind === "user") return { kind: "user", token, user: store.user(token.userId) };
  if (token.kind === "job") return { kind: "job", token, user: store.user(token.userId) };
  const installation = store.installations.get(token.installationId ?? -1);
  if (!installation) throw badCredentials();
  const app = store.apps.get(installation.appId);
  if (!app) throw badCredentials();
  return { kind: "installation", token, installation, app, user: store.user(app.botUserId) };
}

async function verifyAppJwt(jwt: string, store: Store, clock: Clock): Promise<AppRecord> {
  const [, payloadPart] = jwt.split(".");
  let iss: unknown;
  try {
    iss = JSON.parse(Buffer.from(payloadPart ?? "", "base64url").toString("utf8")).iss;
  } catch {
    throw new HttpError(401, "A JSON web token could not be decoded");
  }
  const app = [...store.apps.values()].find(
    (a) => String(a.id) === String(iss) || a.clientId === iss,
  );
  if (!app) throw new HttpError(401, "'Issuer' claim ('iss') must be an Integer");
  const key = await importSPKI(app.publicKeyPem, "RS256");
  try {
    const { payload } = await jwtVerify(jwt, key, {
      algorithms: ["RS256"],
      currentDate: new Date(clock.now()),
      clockTolerance: 60,
    });
    if (typeof payload.exp === "number" && payload.exp * 1000 > clock.now() + 11 * 60 * 1000) {
      throw new HttpError(401, "'Expiration time' claim ('exp') is too far in the future");
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(401, "A JSON web token could not be decoded");
  }
  return app;
}

const ROLE_RANK: Record<Role, number> = { read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };

/**
 * Checks that the caller may act on a repository: an installation needs the repository in its
 * scope (else 404, as GitHub hides it) and the permission (else 403 "Resource not accessible by
 * integration"); a user needs at least `role`.
 */
export function requireRepoAccess(
  principal: Principal,
  store: Store,
  repo: Repo,
  permission: string,
  level: "read" | "write",
  role: Role = level === "read" ? "read" : "write",
): void {
  switch (principal.kind) {
    case "anonymous":
      if (repo.private || level === "write") throw new HttpError(401, "Requires authentication");
      return;
    case "app":
      throw new HttpError(
        401,
        "A JSON web token could not be used to access this endpoint; use an installation token",
      );
    case "job":
    case "installation": {
      const scope =
        principal.kind === "job"
          ? (principal.token.repositoryIds ?? [])
          : (principal.token.repositoryIds ?? principal.installation.repositoryIds);
      if (!scope.includes(repo.id)) throw notFound();
      const granted: PermissionLevel | undefined = principal.token.permissions[permission];
      const ok =
        granted === "admin" || granted === "write" || (level === "read" && granted === "read");
      if (!ok && !(level === "read" && permission === "metadata")) {
        throw new HttpError(403, "Resource not accessible by integration");
      }
      return;
    }
    case "user": {
      const held = store.roleOf(repo, principal.user.id);
      if (!held) throw notFound();
      if (ROLE_RANK[held] < ROLE_RANK[role])
        throw new HttpError(403, "Must have push access to repository");
      return;
    }
  }
}

/** The user a write is attributed to (the app's bot for installation tokens). */
export function actor(principal: Principal): User {
  if (principal.kind === "installation" || principal.kind === "user" || principal.kind === "job")
    return principal.user;
  throw new HttpError(401, "Requires authentication");
}

export function viaApp(principal: Principal): number | null {
  return principal.kind === "installation" ? principal.app.id : null;
}

/** Whether events this principal causes may start workflows and CI (a GITHUB_TOKEN's may not). */
export function startsWorkflows(principal: Principal): boolean {
  return principal.kind !== "job";
}
