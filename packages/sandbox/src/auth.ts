import { randomBytes } from "node:crypto";
import { compactVerify, importSPKI } from "jose";
import { z } from "zod";
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
  let claims: unknown;
  try {
    const { payload } = await compactVerify(jwt, key, { algorithms: ["RS256"] });
    claims = JSON.parse(Buffer.from(payload).toString("utf8"));
  } catch {
    throw new HttpError(401, "A JSON web token could not be decoded");
  }
  const parsed = z.object({ exp: z.number() }).safeParse(claims);
  if (!parsed.success) throw new HttpError(401, EXP_NOT_FUTURE);
  const { exp } = parsed.data;
  // GitHub checks `exp` against its own clock, which runs beside the App's. Here the App signs
  // with the machine's clock while a test may hold the simulated one still or jump it ahead,
  // so a JWT is judged by either clock; one outside both windows is refused as GitHub does.
  const verdicts = [clock.now(), Date.now()].map((nowMs) => expVerdict(exp * 1000, nowMs));
  if (!verdicts.includes("ok")) {
    throw new HttpError(401, verdicts.includes("too_far") ? EXP_TOO_FAR : EXP_NOT_FUTURE);
  }
  return app;
}

const EXP_TOO_FAR = "'Expiration time' claim ('exp') is too far in the future";
const EXP_NOT_FUTURE =
  "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires";

/** GitHub takes an `exp` up to ten minutes ahead; a minute either side allows for drift. */
function expVerdict(expMs: number, nowMs: number): "ok" | "too_far" | "past" {
  if (expMs <= nowMs - 60 * 1000) return "past";
  if (expMs > nowMs + 11 * 60 * 1000) return "too_far";
  return "ok";
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
      // GitHub answers an anonymous read of a private repository as if it did not exist.
      if (level === "write") throw new HttpError(401, "Requires authentication");
      if (repo.private) throw new HttpError(404, "Not Found");
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
