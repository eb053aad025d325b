import { createRequire } from "node:module";
import { Octokit } from "@octokit/rest";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { importPKCS8, SignJWT } from "jose";
import { z } from "zod";
import { createSandbox, type Sandbox } from "../src/index.ts";

const require = createRequire(import.meta.url);

/** A sandbox with one repo, one app installed on it, a human owner and a writer. */
export async function setup(options: Parameters<typeof createSandbox>[0] = {}) {
  const sandbox = await createSandbox(options);
  const repo = sandbox.createRepo("acme/widgets", {
    files: {
      ".github/loopx.yml": "harness: shell\n",
      ".github/CODEOWNERS": "* @alice\n",
      ".github/workflows/loopx.yml": [
        "name: LoopX tick",
        "on:",
        "  workflow_dispatch:",
        "    inputs:",
        "      goal: { required: false }",
        "jobs:",
        "  tick:",
        "    runs-on: ubuntu-latest",
        "    steps:",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JS template
        '      - run: echo "goal=${{ inputs.goal }}" >> "$GITHUB_OUTPUT"',
        "",
      ].join("\n"),
    },
    collaborators: { alice: "maintain", bob: "write", trina: "triage" },
  });
  const { app, privateKey } = sandbox.createApp({ slug: "loopx" });
  if (!privateKey) throw new Error("no key");
  const installation = sandbox.install(app.id, "acme", ["acme/widgets"]);
  const jwt = await appJwt(app.id, privateKey, sandbox.clock.now());
  const appOctokit = client(sandbox, jwt);
  const { data } = await appOctokit.rest.apps.createInstallationAccessToken({
    installation_id: installation.id,
  });
  return {
    sandbox,
    repo,
    app,
    privateKey,
    installation,
    appOctokit,
    bot: client(sandbox, data.token),
    alice: client(sandbox, sandbox.createUserToken("alice")),
    bob: client(sandbox, sandbox.createUserToken("bob")),
  };
}

export async function appJwt(appId: number, privateKey: string, nowMs: number): Promise<string> {
  const now = Math.floor(nowMs / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "RS256" })
    .setIssuer(String(appId))
    .setIssuedAt(now - 30)
    .setExpirationTime(now + 540)
    .sign(await importPKCS8(privateKey, "RS256"));
}

export function client(sandbox: Sandbox, token: string): Octokit {
  return new Octokit({ auth: token, baseUrl: sandbox.url, request: { retries: 0 } });
}

export const o = { owner: "acme", repo: "widgets" } as const;

interface Fixture {
  operations: Record<string, { responses: Record<string, unknown> }>;
  webhooks: Record<string, unknown>;
}
const subset: Fixture = require("./fixtures/openapi-subset.json");
/** GitHub's OAuth endpoints (web host) are not in its OpenAPI description: documented shapes. */
const oauthWeb: Pick<Fixture, "operations"> = require("./fixtures/oauth-web.json");
/** Nor is the manifest flow's form (web host): its documented statuses. */
const manifestWeb: Pick<Fixture, "operations"> = require("./fixtures/app-manifest-web.json");
export const fixture: Fixture = {
  ...subset,
  operations: { ...subset.operations, ...oauthWeb.operations, ...manifestWeb.operations },
};

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);
ajv.addSchema(fixture, "openapi");
ajv.addSchema(require("@octokit/webhooks-schemas"), "webhooks");

const pointer = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

/** The validator for an operation's response at a status, or undefined if the spec has none. */
export function responseValidator(
  operationId: string,
  status: number,
): ValidateFunction | undefined | null {
  const op = fixture.operations[operationId];
  if (!op) return undefined;
  if (!(String(status) in op.responses)) return undefined;
  if (op.responses[String(status)] === null) return null;
  return ajv.getSchema(`openapi#/operations/${pointer(operationId)}/responses/${status}`);
}

export function webhookValidator(
  event: string,
  action: string | undefined,
): ValidateFunction | undefined {
  const name = action ? `${event}$${action}` : `${event}_event`;
  // Action-less events are `<event>$event` in @octokit/webhooks-schemas (e.g. `push$event`).
  const fromSchemas =
    ajv.getSchema(`webhooks#/definitions/${pointer(name)}`) ??
    (action ? undefined : ajv.getSchema(`webhooks#/definitions/${pointer(`${event}$event`)}`));
  if (fromSchemas) return fromSchemas;
  const key = `${event.replace(/_/g, "-")}-${(action ?? "").replace(/_/g, "-")}`;
  if (key in fixture.webhooks) return ajv.getSchema(`openapi#/webhooks/${pointer(key)}`);
  return undefined;
}

export function errorsText(v: ValidateFunction): string {
  return ajv.errorsText(v.errors, { separator: "\n" });
}

/** The real examples GitHub sends, from @octokit/webhooks-examples. */
export const examples: Array<{
  name: string;
  examples: Array<Record<string, unknown>>;
}> = require("@octokit/webhooks-examples");

/**
 * A GitHub App's user sign-in through the OAuth endpoints (JSON answers): the web flow as
 * alice, the device flow as bob, a refresh, then `GET /user` with the token.
 */
/**
 * The manifest flow as a browser and a registering tool drive it: the form POST (for a person
 * and for an organization), the redirect's code, and its conversion, once. Returns the App.
 */
export async function exerciseManifestFlow(sandbox: Sandbox, person: string) {
  const manifest = {
    name: "Manifest App",
    url: "https://example.com",
    hook_attributes: { url: "https://example.com/webhooks" },
    redirect_url: "http://127.0.0.1:9/registered",
    default_permissions: { issues: "write", metadata: "read" },
    default_events: ["issues"],
  };
  const form = (path: string, body: Record<string, string>) =>
    fetch(`${sandbox.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body).toString(),
      redirect: "manual",
    });
  const json = JSON.stringify;
  sandbox.oauth.signIn(null);
  await form("/settings/apps/new?state=s1", { manifest: json(manifest) }); // 401
  sandbox.oauth.signIn(person);
  await form("/settings/apps/new", { manifest: "{not json" }); // 422
  await form("/organizations/nobody-here/settings/apps/new", { manifest: json(manifest) }); // 404
  sandbox.createUser("manifest-org", { type: "Organization" });
  const org = await form("/organizations/manifest-org/settings/apps/new", {
    manifest: json({ ...manifest, name: "Org Manifest App" }),
  });
  await form("/organizations/manifest-org/settings/apps/new", { manifest: json({ url: 3 }) }); // 422
  const mine = await form("/settings/apps/new?state=s1", { manifest: json(manifest) });
  const codeOf = (res: Response) =>
    new URL(res.headers.get("location") ?? "").searchParams.get("code") ?? "";
  const anonymous = new Octokit({ baseUrl: sandbox.url, request: { retries: 0 } });
  await anonymous.rest.apps.createFromManifest({ code: codeOf(org) });
  const { data } = await anonymous.rest.apps.createFromManifest({ code: codeOf(mine) });
  await anonymous.rest.apps.createFromManifest({ code: codeOf(mine) }).catch(() => null); // 404
  return data;
}

export async function exerciseOAuth(sandbox: Sandbox, clientId: string): Promise<void> {
  const json = { accept: "application/json", "content-type": "application/json" };
  const post = async (path: string, body: Record<string, string>) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method: "POST",
      headers: json,
      body: JSON.stringify(body),
    });
    const fields = z.record(z.string(), z.union([z.string(), z.number()])).parse(await res.json());
    return (name: string) => String(fields[name] ?? "");
  };
  const secret = sandbox.oauth.clientSecret(clientId);
  const redirect = "http://127.0.0.1:9/callback";
  const authorize = `${sandbox.url}/login/oauth/authorize?client_id=${clientId}&redirect_uri=${encodeURIComponent(redirect)}&state=s1`;
  await fetch(authorize, { redirect: "manual" }); // 401: nobody signed in yet
  sandbox.oauth.signIn("alice");
  const to = (await fetch(authorize, { redirect: "manual" })).headers.get("location") ?? "";
  const code = new URL(to).searchParams.get("code") ?? "";
  const web = await post("/login/oauth/access_token", {
    client_id: clientId,
    client_secret: secret,
    code,
    redirect_uri: redirect,
  });
  await post("/login/oauth/access_token", { client_id: clientId, client_secret: secret, code });
  await post("/login/oauth/access_token", {
    client_id: clientId,
    client_secret: secret,
    grant_type: "refresh_token",
    refresh_token: web("refresh_token"),
  });
  sandbox.oauth.deviceInterval = 0; // no waiting between polls here
  const device = await post("/login/device/code", { client_id: clientId });
  const poll = { client_id: clientId, device_code: device("device_code") };
  const grant = { ...poll, grant_type: "urn:ietf:params:oauth:grant-type:device_code" };
  await post("/login/oauth/access_token", grant);
  sandbox.oauth.approveDevice(device("user_code"), "bob");
  await post("/login/oauth/access_token", grant);
  await client(sandbox, web("access_token")).rest.users.getAuthenticated();
}

/** Dispatches `workflow` on acme/widgets' main as `token`'s user; the run's id (return_run_details). */
export async function dispatchRun(
  sandbox: Sandbox,
  workflow: string,
  token: string,
): Promise<number> {
  const res = await fetch(
    `${sandbox.url}/repos/acme/widgets/actions/workflows/${workflow}/dispatches`,
    {
      method: "POST",
      headers: { authorization: `token ${token}` },
      body: JSON.stringify({ ref: "main", return_run_details: true }),
    },
  );
  return ((await res.json()) as { workflow_run_id: number }).workflow_run_id;
}
