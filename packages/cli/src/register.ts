/**
 * `loopx register`: GitHub's manifest flow ("Registering a GitHub App from a manifest") from
 * the command line. A page on 127.0.0.1 posts app/app.yml, filled in for this deployment, to
 * GitHub's new-App form; GitHub redirects back with a code; the CLI exchanges it
 * (`POST /app-manifests/{code}/conversions`) and writes the App's settings to a file only its
 * owner can read. Nothing is sent anywhere but to the GitHub named by GHE_HOST (or github.com).
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { GitHubHost } from "@loopx/app";
import { parse } from "yaml";
import { z } from "zod";
import { CliError, EXIT } from "./api-client.ts";

export interface RegisterOptions {
  /** The App's public https URL (LOOPX_PUBLIC_URL): webhooks and sign-in come back here. */
  publicUrl: string;
  github: GitHubHost;
  /** Register under this organization instead of the signed-in person. */
  org: string | null;
  name: string | null;
  /** Where the settings go (KEY=VALUE, mode 0600); never overwritten. */
  out: string;
  /** The local page's port (0: any free one). */
  port: number;
  /** smee.io (or similar) channel the webhooks go to instead, for local development. */
  webhookProxyUrl: string | null;
  /** Settings copied into the file as given (GHE_HOST, GHE_PROTOCOL). */
  carry: Record<string, string>;
  manifestYaml: string;
  timeoutMs: number;
}

const Manifest = z.looseObject({
  name: z.string().min(1),
  url: z.url(),
  hook_attributes: z.looseObject({ url: z.string() }),
  default_permissions: z.record(z.string(), z.string()),
  default_events: z.array(z.string()),
});

/** The 201 of "Create a GitHub App from a manifest" (the fields LoopX keeps). */
const Conversion = z.object({
  id: z.number().int().positive(),
  slug: z.string().min(1),
  html_url: z.url(),
  pem: z.string().includes("PRIVATE KEY"),
  webhook_secret: z.string().min(1),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
});
type Conversion = z.infer<typeof Conversion>;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}

/** One KEY=VALUE line; values with spaces or newlines double-quoted, newlines as `\n`. */
const line = (key: string, value: string) =>
  /^[\w.:/@+-]*$/.test(value) ? `${key}=${value}` : `${key}="${value.replaceAll("\n", "\\n")}"`;

function settingsFile(app: Conversion, opts: RegisterOptions): string {
  const values: [string, string][] = [
    ["APP_ID", String(app.id)],
    ["PRIVATE_KEY", app.pem.trim()],
    ["WEBHOOK_SECRET", app.webhook_secret],
    ["GITHUB_CLIENT_ID", app.client_id],
    ["GITHUB_CLIENT_SECRET", app.client_secret],
    ["LOOPX_PUBLIC_URL", opts.publicUrl],
    ...Object.entries(opts.carry),
    ...(opts.webhookProxyUrl
      ? [["WEBHOOK_PROXY_URL", opts.webhookProxyUrl] as [string, string]]
      : []),
  ];
  return [
    `# The LoopX GitHub App ${app.slug} (${app.html_url}), written by \`loopx register\`.`,
    "# Secret: it holds the App's private key. Add DATABASE_URL or LOOPX_DATA_DIR for `npm start`.",
    ...values.map(([k, v]) => line(k, v)),
    "",
  ].join("\n");
}

/** The manifest GitHub gets: app/app.yml with this deployment's URLs. */
export function deploymentManifest(opts: RegisterOptions, redirectUrl: string) {
  const base = Manifest.parse(parse(opts.manifestYaml));
  const publicUrl = opts.publicUrl.replace(/\/+$/, "");
  return {
    ...base,
    ...(opts.name ? { name: opts.name } : {}),
    hook_attributes: {
      ...base.hook_attributes,
      url: opts.webhookProxyUrl ?? `${publicUrl}/api/github/webhooks`,
    },
    callback_urls: [`${publicUrl}/loopx/auth/callback`],
    redirect_url: redirectUrl,
  };
}

/** Serves the page, waits for GitHub's redirect, exchanges the code, writes the file. */
export async function register(
  opts: RegisterOptions,
  out: (line: string) => void,
): Promise<number> {
  const state = randomBytes(16).toString("hex");
  const formUrl = opts.org
    ? `${opts.github.serverUrl}/organizations/${encodeURIComponent(opts.org)}/settings/apps/new`
    : `${opts.github.serverUrl}/settings/apps/new`;
  let redirectUrl = "";
  let settle: (result: Conversion | Error) => void = () => {};
  const done = new Promise<Conversion | Error>((r) => {
    settle = r;
  });
  const sameState = (given: string | null) =>
    given !== null &&
    given.length === state.length &&
    timingSafeEqual(Buffer.from(given), Buffer.from(state));

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const send = (status: number, html: string) => {
      res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
      res.end(html);
    };
    if (req.method === "GET" && url.pathname === "/") {
      const manifest = JSON.stringify(deploymentManifest(opts, redirectUrl));
      return send(
        200,
        page(
          "Register LoopX",
          `<form id="register" action="${escapeHtml(`${formUrl}?state=${state}`)}" method="post"><input type="hidden" name="manifest" value="${escapeHtml(manifest)}"><button type="submit">Register the LoopX GitHub App</button></form><script>document.getElementById("register").submit()</script>`,
        ),
      );
    }
    if (req.method === "GET" && url.pathname === "/registered") {
      const code = url.searchParams.get("code");
      if (!code || !sameState(url.searchParams.get("state"))) {
        return send(
          400,
          page(
            "Refused",
            "<p>This redirect is not the one this registration started (the state does not match). Start again with <code>loopx register</code>.</p>",
          ),
        );
      }
      exchange(opts.github.apiUrl, code)
        .then((app) => {
          writeFileSync(opts.out, settingsFile(app, opts), { mode: 0o600, flag: "wx" });
          send(
            200,
            page(
              "Registered",
              `<p>The GitHub App <b>${escapeHtml(app.slug)}</b> is registered; its settings are in ${escapeHtml(opts.out)}. Next, <a href="${escapeHtml(`${app.html_url}/installations/new`)}">install it</a>. You can close this tab.</p>`,
            ),
          );
          settle(app);
        })
        .catch((error: unknown) => {
          send(502, page("Failed", `<p>${escapeHtml(String(error))}</p>`));
          settle(error instanceof Error ? error : new Error(String(error)));
        });
      return;
    }
    send(404, page("Not found", "<p>Nothing here.</p>"));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  redirectUrl = `http://127.0.0.1:${port}/registered`;
  out(`Open http://127.0.0.1:${port}/ in a browser signed in to ${opts.github.serverUrl}`);
  out(
    `(it posts app/app.yml to ${formUrl}${opts.org ? "" : "; --org NAME registers it for an organization"})`,
  );
  const timer = setTimeout(
    () =>
      settle(
        new Error(
          `no registration came back within ${Math.round(opts.timeoutMs / 60_000)} minutes`,
        ),
      ),
    opts.timeoutMs,
  );
  const result = await done;
  clearTimeout(timer);
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  if (result instanceof Error) throw new CliError(`register: ${result.message}`, EXIT.unreachable);

  const install = `${result.html_url}/installations/new`;
  out(
    `Registered the GitHub App ${result.slug} (App ID ${result.id}); settings written to ${opts.out} (mode 0600).`,
  );
  out("Next:");
  out(`  1. Install it on your repositories: ${install}`);
  out(`  2. Start the App: docker compose up -d (compose.yaml reads ${opts.out}), or`);
  out(`     set -a; . ./${opts.out}; set +a; LOOPX_DATA_DIR=.loopx/data npm start`);
  out(
    `  3. In each repository: add the two caller workflows of docs/workflows.md and set the variable LOOPX_API_URL=${opts.publicUrl}`,
  );
  out("  4. Label an issue `loopx`.");
  return EXIT.ok;
}

async function exchange(apiUrl: string, code: string): Promise<Conversion> {
  const res = await fetch(`${apiUrl}/app-manifests/${encodeURIComponent(code)}/conversions`, {
    method: "POST",
    headers: { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" },
  });
  if (res.status !== 201) {
    throw new Error(
      `GitHub answered ${res.status} to the code exchange (a code is good once, for an hour): start again`,
    );
  }
  const parsed = Conversion.safeParse(await res.json());
  if (!parsed.success)
    throw new Error(`GitHub's answer to the code exchange is not an App: ${parsed.error.message}`);
  return parsed.data;
}
