/**
 * GitHub's OAuth endpoints for a GitHub App's user authorization, on the web host as on
 * github.com: the web flow (`/login/oauth/authorize` → redirect with `code` →
 * `/login/oauth/access_token`), the device flow (`/login/device/code`, then polling
 * `access_token` with the device grant) and refresh. Token errors answer 200 with
 * `{ error, error_description, error_uri }`, as GitHub does; the body is form-encoded unless
 * the client accepts JSON. The person's side (being signed in, typing a user code) is a
 * sandbox control: see OAuthGrants.
 */
import { performance } from "node:perf_hooks";
import { z } from "zod";
import { HttpError } from "../http-error.ts";
import type { Route, RouteReply, RouteRequest } from "../router.ts";
import type { RouteContext } from "./context.ts";
import { CODE_TTL_MS, DEVICE_TTL_MS, newSecret, type OAuthGrants } from "./oauth-grants.ts";

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const ERROR_DOCS =
  "https://docs.github.com/apps/creating-github-apps/authenticating-with-a-github-app/generating-a-user-access-token-for-a-github-app#troubleshooting";

/** Parameters come as a query string, a form body or JSON, as GitHub accepts all three. */
function params(req: RouteRequest): Record<string, string> {
  const out: Record<string, string> = Object.fromEntries(req.query);
  if (req.body && typeof req.body === "object" && !Array.isArray(req.body)) {
    for (const [k, v] of Object.entries(req.body)) {
      if (typeof v === "string" || typeof v === "number") out[k] = String(v);
    }
  }
  return out;
}

/** JSON when the client asks for it (Accept: application/json), else GitHub's default form. */
function answer(req: RouteRequest, body: Record<string, string | number>, status = 200) {
  if (/json/.test(String(req.headers.accept ?? ""))) return { status, body };
  const form = new URLSearchParams(
    Object.entries(body).map(([k, v]): [string, string] => [k, String(v)]),
  );
  return {
    status,
    body: form.toString(),
    headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
  };
}

const oauthError = (req: RouteRequest, error: string, description: string, extra = {}) =>
  answer(req, { error, error_description: description, error_uri: ERROR_DOCS, ...extra });

const AuthorizeQuery = z.object({
  client_id: z.string().min(1),
  redirect_uri: z.url({ protocol: /^https?$/ }).optional(),
  state: z.string().optional(),
});

const TokenParams = z.object({
  client_id: z.string().min(1),
  client_secret: z.string().optional(),
  code: z.string().optional(),
  redirect_uri: z.string().optional(),
  grant_type: z.string().optional(),
  device_code: z.string().optional(),
  refresh_token: z.string().optional(),
});
type TokenParams = z.infer<typeof TokenParams>;

export function oauthRoutes(ctx: RouteContext, grants: OAuthGrants): Route[] {
  const { store, clock } = ctx;
  const knownClient = (clientId: string) =>
    [...store.apps.values()].some((a) => a.clientId === clientId);

  function deviceToken(req: RouteRequest, p: TokenParams): RouteReply {
    const grant = grants.devices.get(p.device_code ?? "");
    if (!grant || grant.clientId !== p.client_id)
      return oauthError(req, "incorrect_device_code", "The device_code provided is not valid.");
    if (grant.expiresAt <= clock.now()) {
      grants.devices.delete(p.device_code ?? "");
      return oauthError(req, "expired_token", "The device_code has expired.");
    }
    if (grant.denied) {
      grants.devices.delete(p.device_code ?? "");
      return oauthError(req, "access_denied", "The authorization request was denied.");
    }
    // Polling pace is real time: the simulated clock may stand still while a client waits.
    const now = performance.now();
    if (grant.lastPollAt > 0 && now - grant.lastPollAt < grant.interval * 1000 - 50) {
      grant.lastPollAt = now;
      grant.interval += 5;
      return oauthError(
        req,
        "slow_down",
        "Too many requests have been made in the same timeframe.",
        {
          interval: grant.interval,
        },
      );
    }
    grant.lastPollAt = now;
    if (grant.userId === null)
      return oauthError(
        req,
        "authorization_pending",
        "The authorization request is still pending.",
      );
    grants.devices.delete(p.device_code ?? "");
    return answer(req, grants.issue(grant.clientId, grant.userId));
  }

  function codeToken(req: RouteRequest, p: TokenParams): RouteReply {
    if (!grants.secretMatches(p.client_id, p.client_secret))
      return oauthError(
        req,
        "incorrect_client_credentials",
        "The client_id and/or client_secret passed are incorrect.",
      );
    if (p.grant_type === "refresh_token") {
      const refresh = grants.refreshTokens.get(p.refresh_token ?? "");
      grants.refreshTokens.delete(p.refresh_token ?? "");
      if (!refresh || refresh.clientId !== p.client_id || refresh.expiresAt <= clock.now())
        return oauthError(
          req,
          "bad_refresh_token",
          "The refresh token passed is incorrect or expired.",
        );
      return answer(req, grants.issue(p.client_id, refresh.userId));
    }
    const grant = grants.codes.get(p.code ?? "");
    // A code is good once, whatever the outcome.
    grants.codes.delete(p.code ?? "");
    if (!grant || grant.clientId !== p.client_id || grant.expiresAt <= clock.now())
      return oauthError(req, "bad_verification_code", "The code passed is incorrect or expired.");
    if (p.redirect_uri !== undefined && p.redirect_uri !== grant.redirectUri)
      return oauthError(
        req,
        "redirect_uri_mismatch",
        "The redirect_uri MUST match the registered callback URL for this application.",
      );
    return answer(req, grants.issue(p.client_id, grant.userId));
  }

  return [
    {
      method: "GET",
      template: "/login/oauth/authorize",
      operationId: "oauth/authorize",
      auth: "none",
      handle: (req) => {
        const q = AuthorizeQuery.safeParse(Object.fromEntries(req.query));
        if (!q.success || !knownClient(q.data.client_id)) throw new HttpError(404, "Not Found");
        if (!q.data.redirect_uri)
          throw new HttpError(
            400,
            "The sandbox's apps register no callback URL: pass redirect_uri",
          );
        const user = grants.consentingUser();
        if (!user) {
          // github.com would show its sign-in page here; tests choose the person instead.
          throw new HttpError(
            401,
            "Nobody is signed in to the sandbox's GitHub: call sandbox.oauth.signIn(login) first",
          );
        }
        const code = newSecret("code");
        grants.codes.set(code, {
          clientId: q.data.client_id,
          userId: user.id,
          redirectUri: q.data.redirect_uri,
          expiresAt: clock.now() + CODE_TTL_MS,
        });
        const to = new URL(q.data.redirect_uri);
        to.searchParams.set("code", code);
        if (q.data.state !== undefined) to.searchParams.set("state", q.data.state);
        return { status: 302, headers: { location: to.toString() } };
      },
    },
    {
      method: "POST",
      template: "/login/oauth/access_token",
      operationId: "oauth/access-token",
      auth: "none",
      handle: (req) => {
        const p = TokenParams.safeParse(params(req));
        if (!p.success || !knownClient(p.data.client_id))
          return oauthError(
            req,
            "incorrect_client_credentials",
            "The client_id and/or client_secret passed are incorrect.",
          );
        if (p.data.grant_type === DEVICE_GRANT) return deviceToken(req, p.data);
        if (
          p.data.grant_type &&
          !["authorization_code", "refresh_token"].includes(p.data.grant_type)
        )
          return oauthError(req, "unsupported_grant_type", "The grant type is not supported.");
        return codeToken(req, p.data);
      },
    },
    {
      method: "POST",
      template: "/login/device/code",
      operationId: "oauth/device-code",
      auth: "none",
      handle: (req) => {
        const clientId = params(req).client_id ?? "";
        if (!knownClient(clientId)) return answer(req, { error: "Not Found" }, 404);
        const deviceCode = newSecret("ghu").slice(4);
        const userCode = grants.newUserCode();
        grants.devices.set(deviceCode, {
          clientId,
          userCode,
          userId: null,
          denied: false,
          expiresAt: clock.now() + DEVICE_TTL_MS,
          lastPollAt: 0,
          interval: grants.deviceInterval,
        });
        return answer(req, {
          device_code: deviceCode,
          user_code: userCode,
          verification_uri: `${ctx.render.web}/login/device`,
          expires_in: DEVICE_TTL_MS / 1000,
          interval: grants.deviceInterval,
        });
      },
    },
  ];
}
