/**
 * What GitHub's OAuth endpoints remember between requests: authorization codes (web flow),
 * device codes (device flow) and refresh tokens, and who is "signed in to GitHub" in the
 * browser. Tests drive the person's side through the controls (`signIn`, `approveDevice`,
 * `revoke`); the app's side goes over HTTP like against github.com.
 */
import { randomBytes } from "node:crypto";
import type { Clock } from "../clock.ts";
import type { Store } from "../state/store.ts";
import type { User } from "../state/types.ts";

/** GitHub's lifetimes: codes 10 min, device codes 15 min, user tokens 8 h, refresh 6 months. */
export const CODE_TTL_MS = 10 * 60 * 1000;
export const DEVICE_TTL_MS = 15 * 60 * 1000;
export const USER_TOKEN_TTL_S = 8 * 60 * 60;
export const REFRESH_TTL_S = 15_897_600;

export interface CodeGrant {
  clientId: string;
  userId: number;
  redirectUri: string | null;
  expiresAt: number;
}

export interface DeviceGrant {
  clientId: string;
  userCode: string;
  /** Set when the person entered the code and authorized; `denied` when they refused. */
  userId: number | null;
  denied: boolean;
  expiresAt: number;
  lastPollAt: number;
  interval: number;
}

const USER_CODE_LETTERS = "BCDFGHJKLMNPQRSTVWXZ";

/** `ghu_…` (user-to-server) and `ghr_…` (refresh) tokens look like GitHub's. */
export function newSecret(prefix: "ghu" | "ghr" | "code" | "device"): string {
  const body = randomBytes(30).toString("base64url").replace(/[-_]/g, "A").slice(0, 36);
  return prefix === "ghu" || prefix === "ghr" ? `${prefix}_${body}` : body.slice(0, 20);
}

export class OAuthGrants {
  readonly codes = new Map<string, CodeGrant>();
  readonly devices = new Map<string, DeviceGrant>();
  readonly refreshTokens = new Map<
    string,
    { clientId: string; userId: number; expiresAt: number }
  >();
  /** Who the browser is signed in to GitHub as: `/login/oauth/authorize` consents as them. */
  private signedIn: number | null = null;
  /** Seconds a device-flow client must wait between polls (GitHub: 5). */
  deviceInterval = 5;
  /** Client secrets generated in the App's settings, per client id. */
  private readonly secrets = new Map<string, string>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** The browser's GitHub session: later authorize requests consent as `login` (null: nobody). */
  signIn(login: string | null): void {
    if (login === null) {
      this.signedIn = null;
      return;
    }
    const user = this.store.userByLogin(login);
    if (!user) throw new Error(`sandbox: no user ${login} to sign in as`);
    this.signedIn = user.id;
  }

  /** Generates the App's client secret (App settings → Client secrets), once per client id. */
  clientSecret(clientId: string): string {
    let secret = this.secrets.get(clientId);
    if (!secret) {
      secret = randomBytes(20).toString("hex");
      this.secrets.set(clientId, secret);
    }
    return secret;
  }

  secretMatches(clientId: string, secret: string | undefined): boolean {
    return secret !== undefined && this.secrets.get(clientId) === secret;
  }

  consentingUser(): User | null {
    return this.signedIn === null ? null : this.store.user(this.signedIn);
  }

  /** The person types the code shown by a device-flow client and authorizes (or refuses) it. */
  approveDevice(userCode: string, login: string, allow = true): void {
    const grant = [...this.devices.values()].find((d) => d.userCode === userCode.toUpperCase());
    if (!grant) throw new Error(`sandbox: no pending device code ${userCode}`);
    const user = this.store.userByLogin(login);
    if (!user) throw new Error(`sandbox: no user ${login}`);
    if (allow) grant.userId = user.id;
    else grant.denied = true;
  }

  /** The user codes waiting for a person, newest last (what a device-flow client printed). */
  pendingUserCodes(): string[] {
    return [...this.devices.values()]
      .filter((d) => d.userId === null && !d.denied && d.expiresAt > this.clock.now())
      .map((d) => d.userCode);
  }

  newUserCode(): string {
    const bytes = randomBytes(8);
    const letters = [...bytes].map((b) => USER_CODE_LETTERS[b % USER_CODE_LETTERS.length]);
    return `${letters.slice(0, 4).join("")}-${letters.slice(4).join("")}`;
  }

  /** Mints a user-to-server token (and its refresh token) for `userId`, as GitHub does. */
  issue(clientId: string, userId: number) {
    const accessToken = newSecret("ghu");
    const refreshToken = newSecret("ghr");
    const now = this.clock.now();
    this.store.tokens.set(accessToken, {
      token: accessToken,
      kind: "user",
      installationId: null,
      userId,
      expiresAt: now + USER_TOKEN_TTL_S * 1000,
      permissions: {},
      repositoryIds: null,
    });
    this.refreshTokens.set(refreshToken, {
      clientId,
      userId,
      expiresAt: now + REFRESH_TTL_S * 1000,
    });
    return {
      access_token: accessToken,
      expires_in: USER_TOKEN_TTL_S,
      refresh_token: refreshToken,
      refresh_token_expires_in: REFRESH_TTL_S,
      token_type: "bearer",
      scope: "",
    };
  }

  /** The person revokes the app's authorization: every user token and refresh token is gone. */
  revoke(login: string): number {
    const user = this.store.userByLogin(login);
    if (!user) return 0;
    let revoked = 0;
    for (const [token, record] of this.store.tokens) {
      if (record.kind === "user" && record.userId === user.id && token.startsWith("ghu_")) {
        this.store.tokens.delete(token);
        revoked++;
      }
    }
    for (const [token, record] of this.refreshTokens) {
      if (record.userId === user.id) this.refreshTokens.delete(token);
    }
    return revoked;
  }
}
