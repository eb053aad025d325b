/**
 * Sign-in for the read-only dashboard: GitHub App user authorization (web flow) for browsers,
 * `Authorization: Bearer <GitHub user token>` for the CLI and scripts. Who may see what is
 * asked of GitHub with the person's own token at request time (cached briefly), so a person
 * sees only goals in repositories they can read, and a revoked authorization signs them out.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { EndedSessions } from "@loopx/store";
import { z } from "zod";
import { html } from "./escape-html.ts";
import { type GitHubUserAuth, TokenRefused } from "./github-user-auth.ts";
import { page } from "./render-layout.ts";
import { type CookieSealer, readCookie, setCookie } from "./session-cookie.ts";

export interface SignInOptions {
  github: GitHubUserAuth;
  sealer: CookieSealer;
  clientId: string;
  /** GitHub's web root, for `loopx login` (device flow) and links. */
  serverUrl: string;
  /** The dashboard's public origin (https://loopx.example.com): the OAuth callback's base. */
  publicUrl: string;
  /** Where signed-out sessions are kept (the database: every replica refuses them). */
  sessions: EndedSessions;
  /** How long GitHub's answers (who a token is, what it can read) are trusted. Default 60 s. */
  cacheMs?: number;
  now?: () => number;
}

export interface SignIn {
  /** Serves /loopx/auth/* (login, callback, logout); false for other paths. */
  handle(req: IncomingMessage, res: ServerResponse, path: string, url: URL): Promise<boolean>;
  /** The signed-in person (cookie or bearer token), or null. */
  session(req: IncomingMessage): Promise<Viewer | null>;
  /** Answers a request that needs sign-in: a redirect for pages, 401 saying what to do for the API. */
  refuse(req: IncomingMessage, res: ServerResponse, url: URL, api: boolean): void;
  /** What the CLI needs to sign in (public: a client id is not a secret). */
  describe(): { signIn: "github"; clientId: string; githubUrl: string; loginUrl: string };
}

export interface Viewer {
  login: string;
  /** Whether this person can read `owner/repo` on GitHub; goals elsewhere stay hidden. */
  canRead(repo: string): Promise<boolean>;
}

export const AUTH_PATH = "/loopx/auth";
const SESSION_COOKIE = "loopx_session";
const STATE_COOKIE = "loopx_oauth";
/** GitHub's user-to-server tokens last 8 h; a session never outlives its token. */
const SESSION_MAX_S = 8 * 60 * 60;
const STATE_MAX_S = 10 * 60;

/** `sid` names the session, so signing out can end it on the server (see ended-sessions.ts). */
const SessionPayload = z.object({
  sid: z.string().min(16),
  login: z.string(),
  token: z.string(),
  exp: z.number(),
});
const StatePayload = z.object({ state: z.string(), next: z.string(), exp: z.number() });

/** Only our own pages may be returned to after sign-in (no open redirect). */
function safeNext(raw: string | null): string {
  return raw && /^\/loopx(\/[\w\-./%]*)?$/.test(raw) && !raw.includes("..") ? raw : "/loopx";
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function createSignIn(opts: SignInOptions): SignIn {
  const { github, sealer } = opts;
  const now = opts.now ?? Date.now;
  const cacheMs = opts.cacheMs ?? 60_000;
  const publicUrl = opts.publicUrl.replace(/\/+$/, "");
  const secure = publicUrl.startsWith("https:");
  const callbackUrl = `${publicUrl}${AUTH_PATH}/callback`;
  const cache = new Map<string, { value: string | boolean; until: number }>();

  async function cached<T extends string | boolean>(key: string, load: () => Promise<T>) {
    const hit = cache.get(key);
    if (hit && hit.until > now()) return hit.value;
    const value = await load();
    if (cacheMs > 0) {
      if (cache.size > 5000) for (const [k, v] of cache) if (v.until <= now()) cache.delete(k);
      cache.set(key, { value, until: now() + cacheMs });
    }
    return value;
  }

  /** A viewer for a token GitHub still accepts; null (signed out) when it refuses it. */
  async function viewerFor(token: string): Promise<Viewer | null> {
    // Cache keys hold a hash, never the token itself.
    const id = createHash("sha256").update(token).digest("base64url");
    try {
      const login = String(await cached(`user:${id}`, () => github.login(token)));
      return {
        login,
        canRead: async (repo) => {
          try {
            return (await cached(`read:${id}:${repo}`, () => github.canRead(token, repo))) === true;
          } catch (error) {
            if (error instanceof TokenRefused) return false;
            throw error;
          }
        },
      };
    } catch (error) {
      if (error instanceof TokenRefused) {
        for (const key of cache.keys()) if (key.includes(id)) cache.delete(key);
        return null;
      }
      throw error;
    }
  }

  const cookie = (name: string, value: string, path: string, maxAge: number) =>
    setCookie(name, value, { path, maxAge, secure });
  const clearSession = () => cookie(SESSION_COOKIE, "", "/loopx", 0);

  function htmlAnswer(
    res: ServerResponse,
    status: number,
    title: string,
    text: string,
    endSession = false,
  ) {
    res.writeHead(status, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy":
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
      "x-content-type-options": "nosniff",
      // A state is good for one callback, whatever its outcome.
      "set-cookie": [
        cookie(STATE_COOKIE, "", AUTH_PATH, 0),
        ...(endSession ? [clearSession()] : []),
      ],
    });
    res.end(
      page(
        title,
        html`<section><p>${text}</p><p><a href="${AUTH_PATH}/login">Sign in with GitHub</a></p></section>`,
      ).value,
    );
  }

  const describe = () => ({
    signIn: "github" as const,
    clientId: opts.clientId,
    githubUrl: opts.serverUrl.replace(/\/+$/, ""),
    loginUrl: `${publicUrl}${AUTH_PATH}/login`,
  });

  async function callback(req: IncomingMessage, res: ServerResponse, url: URL) {
    const saved = sealer.unseal(readCookie(req, STATE_COOKIE), StatePayload);
    const state = url.searchParams.get("state") ?? "";
    if (!saved || saved.exp < now() || !state || !same(state, saved.state)) {
      htmlAnswer(
        res,
        403,
        "Sign-in refused",
        "This sign-in did not start here, or it is stale (its state does not match). Nothing was signed in; start again.",
      );
      return;
    }
    const code = url.searchParams.get("code");
    if (!code) {
      const why = url.searchParams.get("error_description") ?? "GitHub sent no code";
      htmlAnswer(res, 403, "Sign-in not completed", `${why}.`);
      return;
    }
    const exchanged = await github.exchangeCode(code, callbackUrl);
    if (!exchanged.ok) {
      htmlAnswer(res, 502, "Sign-in failed", exchanged.message);
      return;
    }
    const login = await github.login(exchanged.token);
    const maxAge = Math.min(exchanged.expiresInSeconds ?? SESSION_MAX_S, SESSION_MAX_S);
    const session = sealer.seal({
      sid: randomBytes(18).toString("base64url"),
      login,
      token: exchanged.token,
      exp: now() + maxAge * 1000,
    });
    res.writeHead(303, {
      location: safeNext(saved.next),
      "cache-control": "no-store",
      "set-cookie": [
        cookie(SESSION_COOKIE, session, "/loopx", maxAge),
        cookie(STATE_COOKIE, "", AUTH_PATH, 0),
      ],
    });
    res.end();
  }

  return {
    async handle(req, res, path, url) {
      if (req.method === "GET" && path === `${AUTH_PATH}/login`) {
        const state = randomBytes(32).toString("base64url");
        const next = safeNext(url.searchParams.get("next"));
        const sealed = sealer.seal({ state, next, exp: now() + STATE_MAX_S * 1000 });
        res.writeHead(302, {
          location: github.authorizeUrl(callbackUrl, state),
          "cache-control": "no-store",
          "set-cookie": cookie(STATE_COOKIE, sealed, AUTH_PATH, STATE_MAX_S),
        });
        res.end();
        return true;
      }
      if (req.method === "GET" && path === `${AUTH_PATH}/callback`) {
        await callback(req, res, url);
        return true;
      }
      // POST only: SameSite=Lax keeps another site from signing a person out.
      if (req.method === "POST" && path === `${AUTH_PATH}/logout`) {
        // Ended on the server, not only in this browser: a copy of the cookie is refused too.
        const saved = sealer.unseal(readCookie(req, SESSION_COOKIE), SessionPayload);
        if (saved) await opts.sessions.end(saved.sid, new Date(saved.exp));
        htmlAnswer(res, 200, "Signed out", "You are signed out of the LoopX dashboard.", true);
        return true;
      }
      return false;
    },

    async session(req) {
      const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
      if (bearer) return viewerFor(bearer);
      const saved = sealer.unseal(readCookie(req, SESSION_COOKIE), SessionPayload);
      if (!saved || saved.exp < now()) return null;
      if (await opts.sessions.ended(saved.sid)) return null;
      return viewerFor(saved.token);
    },

    refuse(req, res, url, api) {
      const hadSession = readCookie(req, SESSION_COOKIE) !== undefined;
      const headers: Record<string, string> = { "cache-control": "no-store" };
      if (hadSession) headers["set-cookie"] = clearSession();
      if (api) {
        const tried = req.headers.authorization !== undefined || hadSession;
        res.writeHead(401, {
          ...headers,
          "content-type": "application/json",
          "www-authenticate": 'Bearer realm="loopx"',
        });
        res.end(
          JSON.stringify({
            error: `${tried ? "GitHub no longer accepts this sign-in (revoked or expired). " : ""}This LoopX dashboard needs you to sign in with GitHub: run \`loopx login --url ${publicUrl}\`, or send Authorization: Bearer <a GitHub user token>, or open ${publicUrl}${AUTH_PATH}/login in a browser.`,
            signIn: describe(),
          }),
        );
        return;
      }
      const next = encodeURIComponent(safeNext(url.pathname));
      res.writeHead(302, { ...headers, location: `${AUTH_PATH}/login?next=${next}` });
      res.end();
    },

    describe,
  };
}
