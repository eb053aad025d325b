/**
 * Registering a GitHub App from a manifest (docs.github.com, "Registering a GitHub App from a
 * manifest"): the person's browser POSTs a form with `manifest` (JSON) to
 * `/settings/apps/new` or `/organizations/{org}/settings/apps/new` (`?state=` optional);
 * GitHub registers the App and redirects to the manifest's `redirect_url` with a temporary
 * `code` (and the `state`); `POST /app-manifests/{code}/conversions` trades the code, once and
 * within an hour, for the App's id, slug, private key, webhook secret and OAuth credentials.
 * The person's side (signed in, clicking "Create GitHub App") is `sandbox.oauth.signIn(login)`.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { HttpError } from "../http-error.ts";
import type { Route, RouteRequest } from "../router.ts";
import type { setupApi } from "../setup.ts";
import type { RouteContext } from "./context.ts";
import type { OAuthGrants } from "./oauth-grants.ts";

/** "You must complete all three steps in the GitHub App Manifest flow within one hour." */
const CODE_TTL_MS = 60 * 60 * 1000;

const httpUrl = z.url({ protocol: /^https?$/ });
/** GitHub App Manifest parameters (the page's table); `url` and `hook_attributes.url` required. */
const Manifest = z.object({
  name: z.string().min(1).max(34).optional(),
  url: httpUrl,
  hook_attributes: z.object({ url: httpUrl, active: z.boolean().optional() }).optional(),
  redirect_url: httpUrl.optional(),
  callback_urls: z.array(httpUrl).max(10).optional(),
  setup_url: httpUrl.optional(),
  description: z.string().optional(),
  public: z.boolean().optional(),
  default_events: z.array(z.string()).optional(),
  default_permissions: z.record(z.string(), z.enum(["read", "write", "admin"])).optional(),
  request_oauth_on_install: z.boolean().optional(),
  setup_on_update: z.boolean().optional(),
});

type Setup = Pick<ReturnType<typeof setupApi>, "createApp">;

export function appManifestRoutes(
  ctx: RouteContext,
  grants: OAuthGrants,
  setup: () => Setup,
): Route[] {
  const { store, clock, render } = ctx;
  const codes = new Map<string, { appId: number; expiresAt: number }>();

  const register = (req: RouteRequest, ownerLogin: string | null) => {
    const person = grants.consentingUser();
    if (!person) {
      // github.com would show its sign-in page; tests choose the person instead.
      throw new HttpError(
        401,
        "Nobody is signed in to the sandbox's GitHub: call sandbox.oauth.signIn(login) first",
      );
    }
    const owner = ownerLogin === null ? person : store.userByLogin(ownerLogin);
    if (!owner || (ownerLogin !== null && owner.type !== "Organization"))
      throw new HttpError(404, "Not Found");
    const raw = z.object({ manifest: z.string() }).safeParse(req.body);
    let parsed: unknown = null;
    try {
      parsed = raw.success ? JSON.parse(raw.data.manifest) : null;
    } catch {
      parsed = null;
    }
    const manifest = Manifest.safeParse(parsed);
    if (!manifest.success) {
      const detail = manifest.error?.issues
        .map((i) => `${i.path.join(".")}: ${i.message}`)
        .join("; ");
      throw new HttpError(
        422,
        `Invalid GitHub App manifest${detail ? `: ${detail}` : ": pass the manifest form field as JSON"}`,
      );
    }
    const m = manifest.data;
    if (!m.redirect_url) {
      // github.com then shows the new App's settings page; the sandbox has no page to show.
      throw new HttpError(
        422,
        "The sandbox's manifest flow needs a redirect_url to bring the code back to",
      );
    }
    const name = m.name ?? "GitHub App";
    if ([...store.apps.values()].some((a) => a.name.toLowerCase() === name.toLowerCase()))
      throw new HttpError(422, "Name is already in use");
    const slug = name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "");
    const { app } = setup().createApp({
      slug,
      name,
      owner: owner.login,
      permissions: m.default_permissions ?? {},
      events: m.default_events ?? [],
      webhookSecret: randomBytes(20).toString("hex"),
    });
    app.description = m.description ?? "";
    app.externalUrl = m.url;
    const code = randomBytes(20).toString("hex");
    codes.set(code, { appId: app.id, expiresAt: clock.now() + CODE_TTL_MS });
    const to = new URL(m.redirect_url);
    to.searchParams.set("code", code);
    const state = req.query.get("state");
    if (state !== null) to.searchParams.set("state", state);
    return { status: 302, headers: { location: to.toString() } };
  };

  return [
    {
      method: "POST",
      template: "/settings/apps/new",
      operationId: "web/register-app-from-manifest",
      auth: "none",
      handle: (req) => register(req, null),
    },
    {
      method: "POST",
      template: "/organizations/{org}/settings/apps/new",
      operationId: "web/register-org-app-from-manifest",
      auth: "none",
      handle: (req) => register(req, req.params.org ?? ""),
    },
    {
      method: "POST",
      template: "/app-manifests/{code}/conversions",
      operationId: "apps/create-from-manifest",
      auth: "none",
      handle: (req) => {
        const key = req.params.code ?? "";
        const grant = codes.get(key);
        // Good once: a second exchange, or one after the hour, finds nothing.
        codes.delete(key);
        const app =
          grant && grant.expiresAt > clock.now() ? store.apps.get(grant.appId) : undefined;
        if (!app?.privateKeyPem) throw new HttpError(404, "Not Found");
        return {
          status: 201,
          body: {
            ...render.app(app),
            client_id: app.clientId,
            client_secret: grants.clientSecret(app.clientId),
            webhook_secret: app.webhookSecret,
            pem: app.privateKeyPem,
          },
        };
      },
    },
  ];
}
