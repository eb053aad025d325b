import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseEnv } from "node:util";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { parseSettings } from "../../app/src/settings.ts";
import { runCli } from "../../packages/cli/src/runner.ts";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";
import { appJwt } from "../../packages/sandbox/test/helpers.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const PUBLIC_URL = "https://loopx.example.com";

const fromHtml = (s: string) =>
  s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));

/** What a browser does with the CLI's page: reads the form it would submit. */
async function formOf(pageUrl: string): Promise<{ action: string; manifest: string }> {
  const html = await (await fetch(pageUrl)).text();
  const action = /<form[^>]*action="([^"]+)"[^>]*method="post"/.exec(html)?.[1];
  const manifest = /name="manifest" value="([^"]*)"/.exec(html)?.[1];
  if (!action || manifest === undefined) throw new Error(`no manifest form on the page:\n${html}`);
  return { action: fromHtml(action), manifest: fromHtml(manifest) };
}

/**
 * Scenario: `loopx register` against a GitHub Enterprise host (GHE_HOST: the sandbox) — the
 * page posts app/app.yml filled in for the deployment, the person creates the App, GitHub's
 * redirect brings the code, the CLI exchanges it and writes settings the App starts with.
 */
describe("e2e: loopx register (GitHub's manifest flow)", () => {
  let sandbox: Sandbox;
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    sandbox = await createSandbox();
    sandbox.createUser("alice");
    sandbox.createUser("acme", { type: "Organization" });
    dir = mkdtempSync(join(tmpdir(), "loopx-register-"));
    env = { GHE_HOST: new URL(sandbox.url).host, GHE_PROTOCOL: "http" };
  });
  afterAll(async () => {
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the command; `browser` plays the person once the page URL is printed. */
  async function register(
    args: string[],
    browser: (pageUrl: string) => Promise<void>,
  ): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    let pageShown: (url: string) => void = () => {};
    const shown = new Promise<string>((r) => {
      pageShown = r;
    });
    const running = runCli(["register", ...args], {
      env,
      out: (line) => {
        out.push(line);
        const url = /^Open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(line)?.[1];
        if (url) pageShown(url);
      },
      err: (line) => err.push(line),
    });
    const page = await Promise.race([shown, running.then(() => "")]);
    if (page) await browser(page);
    return { code: await running, out, err };
  }

  it("registers the App, writes its settings 0600, and they start LoopX against that host", async () => {
    const file = join(dir, "loopx.env");
    sandbox.oauth.signIn("alice");
    let sent: Record<string, unknown> = {};
    const result = await register(["--url", PUBLIC_URL, "--out", file], async (pageUrl) => {
      const form = await formOf(pageUrl);
      sent = z.record(z.string(), z.unknown()).parse(JSON.parse(form.manifest));
      expect(form.action).toMatch(
        new RegExp(`^${sandbox.url}/settings/apps/new\\?state=[0-9a-f]{32}$`),
      );
      const created = await fetch(form.action, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ manifest: form.manifest }).toString(),
        redirect: "manual",
      });
      expect(created.status).toBe(302);
      const back = new URL(created.headers.get("location") ?? "");
      expect(back.searchParams.get("state")).toBe(new URL(form.action).searchParams.get("state"));
      const done = await fetch(back);
      expect(done.status).toBe(200);
    });
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);

    // The manifest is app/app.yml with this deployment's URLs; never `workflows`.
    const appYml = z
      .object({
        default_permissions: z.record(z.string(), z.string()),
        default_events: z.array(z.string()),
      })
      .parse(parse(readFileSync(join(ROOT, "app/app.yml"), "utf8")));
    expect(sent).toMatchObject({
      hook_attributes: { url: `${PUBLIC_URL}/api/github/webhooks` },
      callback_urls: [`${PUBLIC_URL}/loopx/auth/callback`],
      default_permissions: appYml.default_permissions,
      default_events: appYml.default_events,
    });
    expect(String(sent.redirect_url)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/registered$/);
    expect(appYml.default_permissions).not.toHaveProperty("workflows");

    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = parseEnv(readFileSync(file, "utf8"));
    const settings = parseSettings({ ...written, LOOPX_DATA_DIR: join(dir, "data") });
    expect(settings.github.apiUrl).toBe(`${sandbox.url}/api/v3`);
    expect(settings.oidc.audience).toBe(PUBLIC_URL);
    expect(settings.dashboardSignIn).toBeNull();
    expect(written.GITHUB_CLIENT_ID).toMatch(/\S/);
    // The key and id are the App GitHub registered, with app.yml's permissions.
    const app = [...sandbox.store.apps.values()].find((a) => a.id === settings.appId);
    expect(app?.permissions).toEqual(appYml.default_permissions);
    const jwt = await appJwt(settings.appId, settings.privateKey, sandbox.clock.now());
    const asApp = new Octokit({
      baseUrl: `${sandbox.url}/api/v3`,
      auth: jwt,
      request: { retries: 0 },
    });
    expect((await asApp.rest.apps.getAuthenticated()).data?.slug).toBe(app?.slug);
    expect(written.WEBHOOK_SECRET).toBe(app?.webhookSecret);

    const text = result.out.join("\n");
    expect(text).toContain(`${file} (mode 0600)`);
    expect(text).toMatch(
      new RegExp(`1\\. Install it on your repositories: \\S+/apps/${app?.slug}/installations/new`),
    );
    expect(text).toContain("docs/workflows.md");
    expect(text).toContain(`LOOPX_API_URL=${PUBLIC_URL}`);
  });

  it("an organization's form; a redirect whose state is not this run's is refused and writes nothing", async () => {
    const file = join(dir, "org.env");
    const result = await register(
      ["--url", PUBLIC_URL, "--out", file, "--org", "acme", "--name", "LoopX for acme"],
      async (pageUrl) => {
        const form = await formOf(pageUrl);
        expect(form.action).toContain(`${sandbox.url}/organizations/acme/settings/apps/new?state=`);
        expect(JSON.parse(form.manifest)).toMatchObject({ name: "LoopX for acme" });
        const created = await fetch(form.action.replace(/state=\w+/, "state=forged"), {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ manifest: form.manifest }).toString(),
          redirect: "manual",
        });
        const back = new URL(created.headers.get("location") ?? "");
        expect((await fetch(back)).status).toBe(400);
        expect(() => statSync(file)).toThrow();
        // The person starts again from the page: the right state goes through.
        const again = await fetch(form.action, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            manifest: JSON.stringify({ ...JSON.parse(form.manifest), name: "LoopX for acme 2" }),
          }).toString(),
          redirect: "manual",
        });
        expect((await fetch(new URL(again.headers.get("location") ?? ""))).status).toBe(200);
      },
    );
    expect(result.code).toBe(0);
    const app = [...sandbox.store.apps.values()].find((a) => a.name === "LoopX for acme 2");
    expect(sandbox.store.user(app?.ownerId ?? 0).login).toBe("acme");
    expect(parseEnv(readFileSync(file, "utf8")).APP_ID).toBe(String(app?.id));
  });

  it("refuses to overwrite a settings file, and needs the public URL", async () => {
    const file = join(dir, "taken.env");
    writeFileSync(file, "APP_ID=1\n");
    const taken = await register(["--url", PUBLIC_URL, "--out", file], async () => {});
    expect(taken.code).toBe(2);
    expect(taken.err.join("\n")).toContain(`${file} already exists`);
    expect(readFileSync(file, "utf8")).toBe("APP_ID=1\n");
    const noUrl = await register(["--out", join(dir, "x.env")], async () => {});
    expect(noUrl.code).toBe(2);
    expect(noUrl.err.join("\n")).toContain("--url https://");
  });
});
