import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseSettings, SettingsError } from "../src/settings.ts";

const { privateKey: PEM } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});

const base = {
  APP_ID: "123",
  PRIVATE_KEY: PEM,
  WEBHOOK_SECRET: "s3cret",
  DATABASE_URL: "postgres://loopx@db:5432/loopx",
  LOOPX_PUBLIC_URL: "https://loopx.example.com",
};

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    parseSettings(env, { readFile: () => PEM });
  } catch (error) {
    if (error instanceof SettingsError) return error.problems;
    throw error;
  }
  throw new Error("expected a SettingsError");
}

describe("deployment settings", () => {
  it("accepts a complete environment and fills defaults", () => {
    const s = parseSettings(base);
    expect(s).toMatchObject({
      appId: 123,
      webhookSecret: "s3cret",
      database: { kind: "postgres", url: base.DATABASE_URL },
      github: { apiUrl: "https://api.github.com", serverUrl: "https://github.com" },
      oidc: { audience: "https://loopx.example.com" },
      port: 3000,
      controls: { killed: [], spendCeilingUsd: null, spendCeilingUsdByInstallation: {} },
    });
  });

  it("accepts tokens for this deployment only: its LOOPX_PUBLIC_URL is the audience, unless LOOPX_OIDC_AUDIENCE says otherwise", () => {
    const own = parseSettings({ ...base, LOOPX_PUBLIC_URL: "https://b.example.com/" });
    expect(own.oidc.audience).toBe("https://b.example.com");
    const set = parseSettings({ ...base, LOOPX_OIDC_AUDIENCE: "custom" });
    expect(set.oidc.audience).toBe("custom");
    expect(problemsOf({ ...base, LOOPX_PUBLIC_URL: undefined }).join("\n")).toContain(
      "LOOPX_PUBLIC_URL is not set",
    );
  });

  it("accepts a one-line PEM with \\n escapes, and a key file", () => {
    const oneLine = PEM.trim().replaceAll("\n", "\\n");
    expect(parseSettings({ ...base, PRIVATE_KEY: oneLine }).privateKey).toBe(PEM.trim());
    const fromFile = parseSettings(
      { ...base, PRIVATE_KEY: undefined, PRIVATE_KEY_PATH: "/keys/app.pem" },
      { readFile: () => PEM },
    );
    expect(fromFile.privateKey).toBe(PEM.trim());
  });

  it("reusable tick workflow refs: a comma-separated list, or the shipped default", () => {
    expect(parseSettings(base).oidc.workflowRefs).toBeNull();
    const refs =
      "acme/loopx/.github/workflows/loopx-tick.yml@refs/tags/*, acme/loopx/.github/workflows/loopx-tick.yml@refs/heads/main";
    expect(parseSettings({ ...base, LOOPX_TICK_WORKFLOW_REFS: refs }).oidc.workflowRefs).toEqual([
      "acme/loopx/.github/workflows/loopx-tick.yml@refs/tags/*",
      "acme/loopx/.github/workflows/loopx-tick.yml@refs/heads/main",
    ]);
    expect(
      problemsOf({ ...base, LOOPX_TICK_WORKFLOW_REFS: "loopx-tick.yml" }).join("\n"),
    ).toContain("LOOPX_TICK_WORKFLOW_REFS");
  });

  it("GHES and the sandbox: API and web roots; the OIDC issuer follows the host", () => {
    const ghes = parseSettings({ ...base, GHE_HOST: "ghe.acme.io" });
    expect(ghes.github).toEqual({
      apiUrl: "https://ghe.acme.io/api/v3",
      serverUrl: "https://ghe.acme.io",
    });
    // GHES mints Actions tokens as https://HOSTNAME/_services/token; github.com as its own.
    expect(ghes.oidc.issuer).toBe("https://ghe.acme.io/_services/token");
    expect(parseSettings(base).oidc.issuer).toBe("https://token.actions.githubusercontent.com");
    expect(
      parseSettings({ ...base, GHE_HOST: "ghe.acme.io", LOOPX_OIDC_ISSUER: "https://x.example" })
        .oidc.issuer,
    ).toBe("https://x.example");
    expect(
      parseSettings({ ...base, GITHUB_API_URL: "http://127.0.0.1:4010/api/v3/" }).github,
    ).toEqual({ apiUrl: "http://127.0.0.1:4010/api/v3", serverUrl: "http://127.0.0.1:4010" });
  });

  it("kill switch and spend ceilings per installation", () => {
    const s = parseSettings({
      ...base,
      LOOPX_KILL_SWITCH: "12, 34",
      LOOPX_SPEND_CEILING_USD: "50,777=200.5",
    });
    expect(s.controls).toEqual({
      killed: [12, 34],
      spendCeilingUsd: 50,
      spendCeilingUsdByInstallation: { "777": 200.5 },
    });
  });

  it("PGlite with a data dir, or in demo mode", () => {
    const env = { ...base, DATABASE_URL: undefined };
    expect(parseSettings({ ...env, LOOPX_DATA_DIR: "/var/lib/loopx" }).database).toEqual({
      kind: "pglite",
      dataDir: "/var/lib/loopx",
    });
    expect(parseSettings({ ...env, LOOPX_DEMO: "true" }).database.kind).toBe("pglite");
  });

  it.each<{ name: string; env: Record<string, string | undefined>; says: RegExp }>([
    { name: "missing APP_ID", env: { ...base, APP_ID: undefined }, says: /APP_ID is not set/ },
    { name: "empty APP_ID", env: { ...base, APP_ID: "" }, says: /APP_ID is not set/ },
    { name: "APP_ID not a number", env: { ...base, APP_ID: "loopx" }, says: /APP_ID must be/ },
    {
      name: "no key at all",
      env: { ...base, PRIVATE_KEY: undefined },
      says: /PRIVATE_KEY is not set.*PRIVATE_KEY_PATH/,
    },
    {
      name: "a key that is not PEM",
      env: { ...base, PRIVATE_KEY: "ghp_notakey" },
      says: /not a PEM private key/,
    },
    {
      name: "a broken PEM",
      env: {
        ...base,
        PRIVATE_KEY: "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----",
      },
      says: /could not be read as a private key/,
    },
    {
      name: "no webhook secret",
      env: { ...base, WEBHOOK_SECRET: undefined },
      says: /WEBHOOK_SECRET/,
    },
    {
      name: "PGlite without a data dir",
      env: { ...base, DATABASE_URL: undefined },
      says: /set LOOPX_DATA_DIR .*or set DATABASE_URL/,
    },
    {
      name: "a database URL of the wrong kind",
      env: { ...base, DATABASE_URL: "mysql://x@y/z" },
      says: /postgres:\/\//,
    },
    { name: "a bad port", env: { ...base, PORT: "http" }, says: /PORT must be/ },
    {
      name: "a bad kill switch",
      env: { ...base, LOOPX_KILL_SWITCH: "acme" },
      says: /LOOPX_KILL_SWITCH must list numeric installation ids/,
    },
    {
      name: "a bad ceiling",
      env: { ...base, LOOPX_SPEND_CEILING_USD: "lots" },
      says: /LOOPX_SPEND_CEILING_USD/,
    },
  ])("$name → says what to set", ({ env, says }) => {
    const problems = problemsOf(env);
    expect(problems.join("\n")).toMatch(says);
  });

  it("a readonly dashboard needs sign-in settings, each missing one named", () => {
    expect(parseSettings(base).dashboardSignIn).toBeNull();
    const missing = problemsOf({
      ...base,
      LOOPX_PUBLIC_URL: undefined,
      LOOPX_DASHBOARD: "readonly",
    }).join("\n");
    for (const name of [
      "GITHUB_CLIENT_ID",
      "GITHUB_CLIENT_SECRET",
      "LOOPX_SESSION_SECRET",
      "LOOPX_PUBLIC_URL",
    ]) {
      expect(missing).toContain(`${name} is not set: LOOPX_DASHBOARD=readonly needs sign-in`);
    }
    const signIn = {
      LOOPX_DASHBOARD: "readonly",
      GITHUB_CLIENT_ID: "Iv1.abc",
      GITHUB_CLIENT_SECRET: "shh",
      LOOPX_SESSION_SECRET: "x".repeat(32),
      LOOPX_PUBLIC_URL: "https://loopx.example.com/",
    };
    expect(parseSettings({ ...base, ...signIn }).dashboardSignIn).toEqual({
      clientId: "Iv1.abc",
      clientSecret: "shh",
      sessionSecret: "x".repeat(32),
      publicUrl: "https://loopx.example.com",
    });
    const weak = problemsOf({
      ...base,
      ...signIn,
      LOOPX_SESSION_SECRET: "short",
      LOOPX_PUBLIC_URL: "http://loopx.example.com",
    }).join("\n");
    expect(weak).toContain("LOOPX_SESSION_SECRET must be at least 32 characters");
    expect(weak).toContain("LOOPX_PUBLIC_URL must be https");
    const local = { ...base, ...signIn, LOOPX_PUBLIC_URL: "http://127.0.0.1:3000" };
    expect(parseSettings(local).dashboardSignIn?.publicUrl).toBe("http://127.0.0.1:3000");
  });

  it("retention: 14 days by default; fewer days than GitHub redelivers for are refused", () => {
    const day = 86_400_000;
    expect(parseSettings(base).retentionMs).toBe(14 * day);
    expect(parseSettings({ ...base, LOOPX_RETENTION_DAYS: "30" }).retentionMs).toBe(30 * day);
    expect(parseSettings({ ...base, LOOPX_RETENTION_DAYS: "8" }).retentionMs).toBe(8 * day);
    // GitHub Enterprise Server redelivers a week back: a week is not enough.
    const short = problemsOf({ ...base, LOOPX_RETENTION_DAYS: "7" });
    expect(short).toHaveLength(1);
    expect(short[0]).toMatch(/LOOPX_RETENTION_DAYS must be at least 8.*redelivers/);
    for (const bad of ["0", "-3", "2.5", "two weeks"]) {
      const problems = problemsOf({ ...base, LOOPX_RETENTION_DAYS: bad });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^LOOPX_RETENTION_DAYS must be/);
    }
  });

  it("lists every problem at once", () => {
    const problems = problemsOf({});
    // APP_ID, the key, the webhook secret, the public URL (the audience), the database.
    expect(problems).toHaveLength(5);
    const error = (() => {
      try {
        parseSettings({});
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SettingsError);
    expect(String(error)).toContain("LoopX cannot start");
  });
});
