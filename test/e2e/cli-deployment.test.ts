import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";
import { freshDatabase } from "../support/databases.ts";
import { runLoopx } from "./cli-steps.ts";

const serverUrl = inject("pgUrl");
const skipReason = serverUrl ? "" : inject("pgSkipReason");

/**
 * Scenario: `loopx doctor` (no repository) checks the deployment an operator configured —
 * settings, the database and its migrations, the App's credentials against GitHub (the
 * sandbox) — and `loopx migrate` brings the database up to date.
 */
describe.skipIf(!serverUrl)(`e2e: loopx doctor and migrate for a deployment ${skipReason}`, () => {
  let sandbox: Sandbox;
  let db: { url: string; drop(): Promise<void> };
  let env: Record<string, string>;
  beforeAll(async () => {
    sandbox = await createSandbox();
    const { app, privateKey } = sandbox.createApp({ slug: "loopx" });
    db = await freshDatabase(serverUrl ?? "");
    env = {
      APP_ID: String(app.id),
      PRIVATE_KEY: privateKey ?? "",
      WEBHOOK_SECRET: "a-long-enough-webhook-secret",
      // The deployment's URL: the OIDC audience its tick API accepts.
      LOOPX_PUBLIC_URL: "https://loopx.example.com",
      DATABASE_URL: db.url,
      GITHUB_API_URL: sandbox.gheUrl,
    };
  });
  afterAll(async () => {
    await sandbox.stop();
    await db.drop();
  });

  it("an unmigrated database fails the doctor, names the fix; migrate fixes it", async () => {
    const before = await runLoopx(["doctor"], env);
    expect(before.stdout).toContain("ok   the settings (environment variables) are valid.");
    expect(before.stdout).toMatch(/fail +the database is reachable but 0 of \d+ migrations/);
    expect(before.stdout).toContain("run `loopx migrate`");
    expect(before.stdout).toContain("GitHub accepts the App's credentials (App loopx)");
    expect(before.code).toBe(1);

    const migrated = await runLoopx(["migrate"], env);
    expect(migrated.stderr).toBe("");
    expect(migrated.stdout).toMatch(/migrated: \d+ migrations applied/);
    expect(migrated.code).toBe(0);

    const after = await runLoopx(["doctor", "--json"], env);
    expect(after.code).toBe(0);
    const levels = JSON.parse(after.stdout).findings.map((f: { level: string }) => f.level);
    expect(levels).not.toContain("fail");
  });

  it("missing settings are each reported with what to set (exit 1); migrate needs DATABASE_URL", async () => {
    const r = await runLoopx(["doctor"], { DATABASE_URL: db.url });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("APP_ID is not set");
    expect(r.stdout).toContain("WEBHOOK_SECRET is not set");
    const m = await runLoopx(["migrate"], {});
    expect(m.code).toBe(2);
    expect(m.stderr).toContain("DATABASE_URL is not set");
  });

  it("a wrong private key is refused by GitHub and said so", async () => {
    const other = sandbox.createApp({ slug: "other" }).privateKey ?? "";
    const r = await runLoopx(["doctor"], { ...env, PRIVATE_KEY: other });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("GitHub refused the App's credentials");
  });

  it("--settings lays a deployment's settings over the environment; an unreadable one is a usage error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loopx-env-file-"));
    try {
      const file = join(dir, "deploy.env");
      // PRIVATE_KEY spans lines: the file quotes it, as dotenv files do.
      const lines = Object.entries(env).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
      writeFileSync(file, `${lines.join("\n")}\n`);
      const r = await runLoopx(["doctor", "--settings", file, "--json"], {
        APP_ID: "999999",
      });
      expect(r.stderr).toBe("");
      const findings = JSON.parse(r.stdout).findings.map((f: { message: string }) => f.message);
      expect(findings).toContain("GitHub accepts the App's credentials (App loopx).");

      const missing = await runLoopx(["doctor", "--settings", join(dir, "nope.env")], env);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain(`--settings ${join(dir, "nope.env")} cannot be read`);
      const bare = await runLoopx(["doctor", "--settings"], env);
      expect(bare.code).toBe(2);
      expect(bare.stderr).toContain("--settings needs a path");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
